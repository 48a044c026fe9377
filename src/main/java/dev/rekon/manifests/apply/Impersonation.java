package dev.rekon.manifests.apply;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.rekon.cluster.ApiCallMetrics;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * Who manifest objects are read and written as: a ServiceAccount by impersonation (as kapp and Flux apply as a
 * named ServiceAccount, so Rekon's own role needs only {@code impersonate} on it plus reads), one client per
 * ServiceAccount, kept; or Rekon's own client when none is named. Each is made by {@link ApiCallMetrics}, so its
 * calls and its 429s are counted in {@code /q/metrics} and share the client rate limit like every other call.
 */
@ApplicationScoped
public class Impersonation {

    @Inject
    KubernetesClient client;

    @Inject
    ApiCallMetrics clients;

    private final Map<String, KubernetesClient> impersonating = new ConcurrentHashMap<>();

    /** The client for {@code namespace/name}'s ServiceAccount, or Rekon's own when {@code name} is null. */
    public KubernetesClient as(String namespace, String name) {
        if (name == null || name.isBlank()) {
            return client;
        }
        return impersonating.computeIfAbsent(username(namespace, name), user -> clients.client(
                new ConfigBuilder(client.getConfiguration()).withImpersonateUsername(user).build()));
    }

    public static String username(String namespace, String name) {
        return "system:serviceaccount:" + namespace + ":" + name;
    }

    @PreDestroy
    void close() {
        impersonating.values().forEach(KubernetesClient::close);
    }
}
