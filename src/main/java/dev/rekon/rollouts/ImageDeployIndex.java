package dev.rekon.rollouts;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;

/**
 * Which ImageDeploys of a namespace reference which kpack Image, kept by one watch per group and namespace
 * (started on the first event there), so that an Image event costs the same with 10 or 10,000 ImageDeploys
 * instead of listing and converting all of them. It only names candidates: the caller reads each one
 * fresh, so a watch that lags can never make a plan from a stale object. When no watch can be started
 * (no RBAC for watch, CRD missing, apiserver down) it answers empty and the caller lists.
 */
@ApplicationScoped
public class ImageDeployIndex {

    private static final Logger LOG = Logger.getLogger(ImageDeployIndex.class);
    private static final String BY_IMAGE = "kpackImage";
    private static final long RETRY_AFTER_MILLIS = 30_000;

    @Inject
    KubernetesClient client;

    @Inject
    ObjectMapper mapper;

    private final Map<String, SharedIndexInformer<GenericKubernetesResource>> informers = new ConcurrentHashMap<>();
    private final Map<String, Long> failedAt = new ConcurrentHashMap<>();

    /** Names of the ImageDeploys that referenced the Image when last seen; empty when not indexed. */
    public Optional<List<String>> referencing(String group, String namespace, String imageName) {
        SharedIndexInformer<GenericKubernetesResource> informer = informer(group, namespace);
        if (informer == null) {
            return Optional.empty();
        }
        return Optional.of(informer.getIndexer().byIndex(BY_IMAGE, imageName).stream()
                .map(r -> r.getMetadata().getName()).toList());
    }

    private SharedIndexInformer<GenericKubernetesResource> informer(String group, String namespace) {
        String key = group + "/" + namespace;
        SharedIndexInformer<GenericKubernetesResource> existing = informers.get(key);
        if (existing != null && !existing.stopped().toCompletableFuture().isDone()) {
            return existing;
        }
        informers.remove(key);
        Long failed = failedAt.get(key);
        if (failed != null && System.currentTimeMillis() - failed < RETRY_AFTER_MILLIS) {
            return null;
        }
        synchronized (this) {
            existing = informers.get(key);
            if (existing != null) {
                return existing;
            }
            SharedIndexInformer<GenericKubernetesResource> informer = null;
            try {
                informer = client.genericKubernetesResources(RolloutGateway.imageDeployContext(group))
                        .inNamespace(namespace).runnableInformer(0);
                informer.addIndexers(Map.of(BY_IMAGE, this::imageNames));
                informer.start().toCompletableFuture().get(10, TimeUnit.SECONDS);
                informers.put(key, informer);
                failedAt.remove(key);
                return informer;
            } catch (Exception e) {
                if (e instanceof InterruptedException) {
                    Thread.currentThread().interrupt();
                }
                if (informer != null) {
                    informer.stop();
                }
                failedAt.put(key, System.currentTimeMillis());
                LOG.debugf("no ImageDeploy index for %s, listing instead: %s", key, e);
                return null;
            }
        }
    }

    private List<String> imageNames(GenericKubernetesResource r) {
        return ImageDeployView.fromJson(mapper.valueToTree(r)).refs().stream()
                .map(ImageDeployView.ContainerRef::imageName).distinct().toList();
    }

    @PreDestroy
    void stop() {
        informers.values().forEach(SharedIndexInformer::stop);
    }
}
