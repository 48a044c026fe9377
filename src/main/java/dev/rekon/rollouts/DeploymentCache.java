package dev.rekon.rollouts;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import com.fasterxml.jackson.databind.ObjectMapper;

import dev.rekon.cluster.LatestKnown;
import dev.rekon.core.RekonConfig;
import dev.rekon.cluster.ViewStore;
import dev.rekon.cluster.WatchCaches;
import dev.rekon.cluster.WatchedViews;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * The Deployments Rekon manages (label {@code app.kubernetes.io/managed-by=rekon}), kept by one watch,
 * cluster-wide when {@code rekon.namespaces} is {@code *}, else per namespace (started in the background on
 * first use, read directly until it has synced), as views made once per version, so that a rollout plans without reading the Deployment from the
 * apiserver. It only answers for Deployments it holds; any other (one Rekon did not create, or one created a
 * moment ago) is read from the apiserver. This process's own guarded patches stand in until the watch delivers
 * them; a plan made from a view that lags anyway patches guarded by its resourceVersion, gets a 409, and the
 * rollout plans again from a fresh read.
 */
@ApplicationScoped
public class DeploymentCache {

    @Inject
    KubernetesClient client;

    @Inject
    ObjectMapper mapper;

    @Inject
    RekonConfig rekon;

    private WatchedViews<DeploymentView> watches;

    /** This process's own writes, by namespace, each keyed by Deployment name. */
    private final Map<String, LatestKnown<DeploymentView>> written = new ConcurrentHashMap<>();

    /** The managed Deployment as last seen, or as this process last wrote it, if the namespace's watch holds it. */
    public Optional<DeploymentView> get(String namespace, String name) {
        ViewStore<DeploymentView> store = watches()
                .get(rekon.namespacePolicy().everyNamespace() ? WatchCaches.EVERYWHERE : namespace);
        if (store == null) {
            return Optional.empty();
        }
        List<DeploymentView> found = written(namespace).over(store.find(namespace, Set.of(name)), v -> false);
        return found.stream().findFirst();
    }

    /**
     * The watch of managed Deployments under {@code key} (a namespace, or {@value WatchCaches#EVERYWHERE}), for
     * readers off the event path that can wait up to {@code wait} for it to sync; null when not watched. The resync
     * reads the same watch, so each managed Deployment is watched and held once.
     */
    ViewStore<DeploymentView> store(String key, Duration wait) {
        return watches().get(key, wait);
    }

    /** Records a patch of this process, until the watch delivers it. */
    public void wrote(HasMetadata deployment) {
        if (deployment != null && deployment.getMetadata() != null) {
            DeploymentView v = DeploymentView.fromJson(mapper.valueToTree(deployment));
            written(deployment.getMetadata().getNamespace()).put(v.name(), v.resourceVersion(), v);
        }
    }

    private LatestKnown<DeploymentView> written(String namespace) {
        return written.computeIfAbsent(namespace, ns -> new LatestKnown<>(DeploymentView::name));
    }

    private synchronized WatchedViews<DeploymentView> watches() {
        if (watches == null) {
            watches = new WatchedViews<>("Deployments", key -> {
                var kind = client.genericKubernetesResources("apps/v1", "Deployment");
                var scoped = WatchCaches.clusterWide(key) ? kind.inAnyNamespace() : kind.inNamespace(key);
                return scoped.withLabel(RolloutPlanner.MANAGED_BY, "rekon").runnableInformer(0);
            },
                    d -> DeploymentView.fromJson(mapper.valueToTree(d)), v -> List.of(v.name()));
        }
        return watches;
    }

    @PreDestroy
    synchronized void stop() {
        if (watches != null) {
            watches.stopAll();
        }
    }
}
