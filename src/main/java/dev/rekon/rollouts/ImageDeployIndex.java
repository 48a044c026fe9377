package dev.rekon.rollouts;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import com.fasterxml.jackson.databind.ObjectMapper;

import dev.rekon.cluster.OwnWrites;
import dev.rekon.cluster.ViewMemo;
import dev.rekon.cluster.WatchCaches;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;

/**
 * The ImageDeploys of a namespace that reference a kpack Image, kept by one watch per group and namespace
 * (started on the first event there), so that an Image event costs the same with 10 or 10,000 ImageDeploys
 * and reads none of them from the apiserver. A view may lag the apiserver by the watch's delay: the rollout
 * writes its status guarded by the view's resourceVersion, and re-reads on a conflict. Without a watch (no
 * RBAC for watch, CRD missing, apiserver down) it answers empty and the caller lists.
 */
@ApplicationScoped
public class ImageDeployIndex {

    private static final String BY_IMAGE = "kpackImage";

    @Inject
    KubernetesClient client;

    @Inject
    ObjectMapper mapper;

    private WatchCaches<GenericKubernetesResource> caches;

    /** Status writes of this process the watch has not delivered yet, by group/namespace/name. */
    private final OwnWrites<GenericKubernetesResource> ownWrites = new OwnWrites<>();

    private final ViewMemo<ImageDeployView> views = new ViewMemo<>();

    /** The ImageDeploys that referenced the Image when last seen; empty when not indexed. */
    public Optional<List<ImageDeployView>> referencing(String group, String namespace, String imageName) {
        SharedIndexInformer<GenericKubernetesResource> informer = caches().get(group + "/" + namespace);
        if (informer == null) {
            return Optional.empty();
        }
        return Optional.of(informer.getIndexer().byIndex(BY_IMAGE, imageName).stream()
                .map(r -> views.of(key(group, r), latest(group, r), this::view)).toList());
    }

    /** Records a write of this process: {@code written} replaced the object at {@code replacedVersion}. */
    public void wrote(String group, String replacedVersion, GenericKubernetesResource written) {
        if (written != null) {
            ownWrites.wrote(key(group, written), replacedVersion, written);
        }
    }

    private GenericKubernetesResource latest(String group, GenericKubernetesResource cached) {
        return ownWrites.latest(key(group, cached), cached);
    }

    private static String key(String group, GenericKubernetesResource r) {
        return group + "/" + r.getMetadata().getNamespace() + "/" + r.getMetadata().getName();
    }

    private synchronized WatchCaches<GenericKubernetesResource> caches() {
        if (caches == null) {
            caches = new WatchCaches<>("ImageDeploys", key -> {
                String[] groupAndNamespace = key.split("/", 2);
                SharedIndexInformer<GenericKubernetesResource> informer = client
                        .genericKubernetesResources(RolloutGateway.imageDeployContext(groupAndNamespace[0]))
                        .inNamespace(groupAndNamespace[1]).runnableInformer(0);
                informer.addIndexers(Map.of(BY_IMAGE, this::imageNames));
                return informer;
            });
        }
        return caches;
    }

    private ImageDeployView view(GenericKubernetesResource r) {
        return ImageDeployView.fromJson(mapper.valueToTree(r));
    }

    private List<String> imageNames(GenericKubernetesResource r) {
        return view(r).refs().stream().map(ImageDeployView.ContainerRef::imageName).distinct().toList();
    }

    @PreDestroy
    synchronized void stop() {
        if (caches != null) {
            caches.stopAll();
        }
    }
}
