package dev.rekon.webhooks;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.rekon.cluster.KubeErrors;
import io.fabric8.kubernetes.api.model.LocalObjectReference;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.client.KubernetesClient;

/** The {@link PullSecretGateway} on the Kubernetes API; failures sorted by {@link KubeErrors}. */
@ApplicationScoped
public class KubePullSecretGateway implements PullSecretGateway {

    @Inject
    KubernetesClient client;

    @Override
    public Optional<Map<String, String>> secretData(String namespace, String name) {
        Secret secret = KubeErrors.call("reading " + PullSecretReader.secret(namespace, name),
                () -> client.secrets().inNamespace(namespace).withName(name).get());
        return Optional.ofNullable(secret).map(Secret::getData);
    }

    @Override
    public Optional<List<String>> imagePullSecrets(String namespace, String serviceAccount) {
        ServiceAccount sa = KubeErrors.call("reading " + PullSecretReader.serviceAccount(namespace, serviceAccount),
                () -> client.serviceAccounts().inNamespace(namespace).withName(serviceAccount).get());
        return Optional.ofNullable(sa)
                .map(a -> a.getImagePullSecrets().stream().map(LocalObjectReference::getName).toList());
    }
}
