package dev.rekon.rollouts;

import java.util.Optional;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import com.fasterxml.jackson.databind.ObjectMapper;

import dev.rekon.cluster.OwnWrites;
import dev.rekon.cluster.ViewMemo;
import dev.rekon.cluster.WatchCaches;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;

/**
 * The Deployments Rekon manages (label {@code app.kubernetes.io/managed-by=rekon}), kept by one watch per
 * namespace, so that a rollout plans without reading the Deployment from the apiserver. It only answers for
 * Deployments it holds; any other (one Rekon did not create, or one created a moment ago) is read from the
 * apiserver. Plans made from a cached Deployment patch it guarded by the cached resourceVersion: a cache
 * that lags gets a 409, and the rollout plans again from a fresh read.
 */
@ApplicationScoped
public class DeploymentCache {

    @Inject
    KubernetesClient client;

    @Inject
    ObjectMapper mapper;

    private WatchCaches<Deployment> caches;

    private final OwnWrites<Deployment> ownWrites = new OwnWrites<>();

    private final ViewMemo<DeploymentView> views = new ViewMemo<>();

    /** The managed Deployment as last seen, or as this process last wrote it, if the namespace's watch holds it. */
    public Optional<DeploymentView> get(String namespace, String name) {
        SharedIndexInformer<Deployment> informer = caches().get(namespace);
        if (informer == null) {
            return Optional.empty();
        }
        String key = namespace + "/" + name;
        return Optional.ofNullable(informer.getStore().getByKey(key))
                .map(d -> views.of(key, ownWrites.latest(key, d), x -> DeploymentView.fromJson(mapper.valueToTree(x))));
    }

    /** Records a guarded write of this process: {@code written} replaced the Deployment at {@code replacedVersion}. */
    public void wrote(String replacedVersion, Deployment written) {
        if (written != null && written.getMetadata() != null) {
            ownWrites.wrote(written.getMetadata().getNamespace() + "/" + written.getMetadata().getName(),
                    replacedVersion, written);
        }
    }

    private synchronized WatchCaches<Deployment> caches() {
        if (caches == null) {
            caches = new WatchCaches<>("Deployments", namespace -> client.apps().deployments().inNamespace(namespace)
                    .withLabel(RolloutPlanner.MANAGED_BY, "rekon").runnableInformer(0));
        }
        return caches;
    }

    @PreDestroy
    synchronized void stop() {
        if (caches != null) {
            caches.stopAll();
        }
    }
}
