package dev.rekon.webhooks;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.rekon.cluster.KubeErrors;
import dev.rekon.registry.Credential;
import dev.rekon.registry.DockerConfig;
import io.fabric8.kubernetes.api.model.LocalObjectReference;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * Finds a registry credential among subscribers' pull secrets, in their order: the Secrets each names, then its
 * ServiceAccount's {@code imagePullSecrets}. Stops at the first Secret with an entry for the registry, so a push
 * reads no more Secrets than it needs; a missing ServiceAccount or Secret is skipped (the read is then anonymous).
 */
@ApplicationScoped
public class PullSecretReader {

    @Inject
    KubernetesClient client;

    public Optional<Credential> forRegistry(String registry, List<Subscription.PullSecrets> subscribers) {
        for (Subscription.PullSecrets s : subscribers) {
            for (String name : secretNames(s)) {
                Secret secret = KubeErrors.call("reading pull secret " + s.namespace() + "/" + name,
                        () -> client.secrets().inNamespace(s.namespace()).withName(name).get());
                Optional<Credential> found = DockerConfig.ofSecretData(secret == null ? null : secret.getData())
                        .forRegistry(registry);
                if (found.isPresent()) {
                    return found;
                }
            }
        }
        return Optional.empty();
    }

    private List<String> secretNames(Subscription.PullSecrets s) {
        List<String> names = new ArrayList<>(s.secretNames());
        if (s.serviceAccount() != null) {
            ServiceAccount sa = KubeErrors.call("reading service account " + s.namespace() + "/" + s.serviceAccount(),
                    () -> client.serviceAccounts().inNamespace(s.namespace()).withName(s.serviceAccount()).get());
            if (sa != null) {
                sa.getImagePullSecrets().stream().map(LocalObjectReference::getName).filter(n -> !names.contains(n))
                        .forEach(names::add);
            }
        }
        return names;
    }
}
