package dev.rekon.rollouts;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import com.fasterxml.jackson.databind.ObjectMapper;

import dev.rekon.cluster.LatestKnown;
import dev.rekon.core.RekonConfig;
import dev.rekon.cluster.ViewStore;
import dev.rekon.cluster.WatchCaches;
import dev.rekon.cluster.WatchedViews;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * The ImageDeploys of a namespace that reference a kpack Image, kept by one watch per group, cluster-wide when
 * {@code rekon.namespaces} is {@code *}, else per namespace (started in the background on the first event
 * there, read directly until it has synced), as views made once per version, so that an Image event costs the same with
 * 10 or 10,000 ImageDeploys and reads none of them from the apiserver. A view may lag the apiserver by the
 * watch's delay: this process's own status writes stand in until the watch delivers them, and the rollout
 * writes its status guarded by the view's resourceVersion, re-reading on a conflict. Without a watch (no RBAC
 * for watch, CRD missing, apiserver down) it answers empty and the caller lists.
 */
@ApplicationScoped
public class ImageDeployIndex {

    @Inject
    KubernetesClient client;

    @Inject
    ObjectMapper mapper;

    @Inject
    RekonConfig rekon;

    private WatchedViews<ImageDeployView> watches;

    private final LatestKnown<ImageDeployView> written = new LatestKnown<>(ImageDeployIndex::key);

    /** The ImageDeploys that referenced the Image when last seen; empty when not indexed. */
    public Optional<List<ImageDeployView>> referencing(String group, String namespace, String imageName) {
        String scope = rekon.namespacePolicy().everyNamespace() ? WatchCaches.EVERYWHERE : namespace;
        ViewStore<ImageDeployView> store = watches().get(group + "/" + scope);
        if (store == null) {
            return Optional.empty();
        }
        return Optional.of(written.over(store.find(namespace, Set.of(imageName)), v -> group.equals(v.group())
                && namespace.equals(v.namespace()) && v.references(imageName)));
    }

    /**
     * The watch of the group's ImageDeploys under {@code key} (a namespace, or {@value WatchCaches#EVERYWHERE}), for
     * readers off the event path that can wait up to {@code wait} for it to sync; null when not watched. The resync
     * reads the same watch, so each ImageDeploy is watched and held once.
     */
    ViewStore<ImageDeployView> store(String group, String key, Duration wait) {
        return watches().get(group + "/" + key, wait);
    }

    /** Records a status write of this process, until the watch delivers it. */
    public void wrote(GenericKubernetesResource object) {
        if (object != null) {
            ImageDeployView v = view(object);
            written.put(key(v), object.getMetadata().getResourceVersion(), v);
        }
    }

    private static String key(ImageDeployView v) {
        return v.group() + "/" + v.namespace() + "/" + v.name();
    }

    private synchronized WatchedViews<ImageDeployView> watches() {
        if (watches == null) {
            watches = new WatchedViews<>("ImageDeploys", key -> {
                String[] groupAndScope = key.split("/", 2);
                var kind = client.genericKubernetesResources(KubeRolloutGateway.imageDeployContext(groupAndScope[0]));
                return WatchCaches.clusterWide(key) ? kind.inAnyNamespace().runnableInformer(0)
                        : kind.inNamespace(groupAndScope[1]).runnableInformer(0);
            }, this::view, v -> v.refs().stream().map(ImageDeployView.ContainerRef::imageName).distinct().toList());
        }
        return watches;
    }

    private ImageDeployView view(GenericKubernetesResource r) {
        return ImageDeployView.fromJson(mapper.valueToTree(r));
    }

    @PreDestroy
    synchronized void stop() {
        if (watches != null) {
            watches.stopAll();
        }
    }
}
