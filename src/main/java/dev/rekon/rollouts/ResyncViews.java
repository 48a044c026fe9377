package dev.rekon.rollouts;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.BiFunction;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import com.fasterxml.jackson.databind.ObjectMapper;

import dev.rekon.cluster.ViewStore;
import dev.rekon.cluster.Versioned;
import dev.rekon.cluster.WatchCaches;
import dev.rekon.cluster.WatchedViews;
import dev.rekon.core.RekonConfig;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;

/**
 * What the rollouts resync reads, all from watches and none per object: every ImageDeploy (of each enabled
 * group), every kpack Image and every Deployment labelled {@code app.kubernetes.io/managed-by=rekon}, in the
 * allowed namespaces: one cluster-wide watch per kind when every namespace is allowed, else one per allowed
 * namespace (so per-namespace RoleBindings suffice). ImageDeploys and Deployments come from the very watches the
 * event path keeps ({@link ImageDeployIndex}, {@link DeploymentCache}), so each object is watched and held once;
 * kpack Images have a watch of their own. The watches start with the first pass (or event) and keep running, so
 * later passes cost no list. Empty when a watch cannot run (no RBAC for watch, CRD missing).
 */
@ApplicationScoped
public class ResyncViews {

    /** How long a pass waits for watches it started to sync: they start in the background, off the event path. */
    static final Duration SYNC_WAIT = Duration.ofSeconds(10);

    @Inject
    KubernetesClient client;

    @Inject
    ObjectMapper mapper;

    @Inject
    RekonConfig config;

    @Inject
    KubeRolloutGateway gateway;

    @Inject
    ImageDeployIndex imageDeploys;

    @Inject
    DeploymentCache deployments;

    private WatchedViews<KpackImage> images;

    /** The ImageDeploys of the group in {@code namespace} (null: every allowed one); empty when not watched. */
    public Optional<List<ImageDeployView>> imageDeploys(String group, String namespace) {
        return read((key, wait) -> imageDeploys.store(group, key, wait), namespace);
    }

    public Optional<List<KpackImage>> images(String namespace) {
        return read(images()::get, namespace);
    }

    public Optional<List<DeploymentView>> deployments(String namespace) {
        return read(deployments::store, namespace);
    }

    private <V> Optional<List<V>> read(BiFunction<String, Duration, ViewStore<V>> watch, String namespace) {
        List<String> keys = namespace != null && !config.namespacePolicy().everyNamespace() ? List.of(namespace)
                : config.namespacePolicy().across(List::of, () -> List.of(WatchCaches.EVERYWHERE));
        List<V> out = new ArrayList<>();
        long deadline = System.nanoTime() + SYNC_WAIT.toNanos();
        for (String key : keys) {
            ViewStore<V> store = watch.apply(key, Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
            if (store == null) {
                return Optional.empty();
            }
            store.find(namespace, null).stream().map(Versioned::view).forEach(out::add);
        }
        return Optional.of(out);
    }

    private synchronized WatchedViews<KpackImage> images() {
        if (images == null) {
            images = new WatchedViews<>("kpack Images (resync)",
                    key -> informer(client.genericKubernetesResources(gateway.imageContext()), key),
                    r -> KpackImage.fromJson(mapper.valueToTree(r)), v -> List.of());
        }
        return images;
    }

    private static SharedIndexInformer<GenericKubernetesResource> informer(
            MixedOperation<GenericKubernetesResource, GenericKubernetesResourceList, Resource<GenericKubernetesResource>> op,
            String namespace) {
        return WatchCaches.EVERYWHERE.equals(namespace) ? op.inAnyNamespace().runnableInformer(0)
                : op.inNamespace(namespace).runnableInformer(0);
    }

    @PreDestroy
    synchronized void stop() {
        if (images != null) {
            images.stopAll();
        }
    }
}
