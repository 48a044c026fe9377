package dev.rekon.promotions.apply;

import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * How a stage is reached: a client (this cluster's, or one made from the stage's kubeconfig), or why none could be
 * made from what the user gave (a reason such as {@code KubeconfigSecretNotFound}, and a message that never holds
 * the kubeconfig itself).
 */
public sealed interface StageAccess {

    record Reached(KubernetesClient client, String cluster) implements StageAccess {
    }

    record Refused(String reason, String message) implements StageAccess {
    }
}
