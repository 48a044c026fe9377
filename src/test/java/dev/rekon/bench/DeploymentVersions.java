package dev.rekon.bench;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;

/** When a watch on a namespace first saw each container image in a Deployment: the moment it was patched, observed. */
final class DeploymentVersions implements AutoCloseable {

    private final Map<String, CompletableFuture<Long>> firstSeen = new ConcurrentHashMap<>();
    private Watch watch;

    static DeploymentVersions watch(KubernetesClient client, String namespace) {
        DeploymentVersions v = new DeploymentVersions();
        v.watch = client.apps().deployments().inNamespace(namespace).watch(new Watcher<>() {
            @Override
            public void eventReceived(Action action, Deployment d) {
                long now = System.nanoTime();
                for (Container c : d.getSpec().getTemplate().getSpec().getContainers()) {
                    v.seen(c.getImage()).complete(now);
                }
            }

            @Override
            public void onClose(WatcherException cause) {
                if (cause != null) {
                    v.firstSeen.values().forEach(f -> f.completeExceptionally(cause));
                }
            }
        });
        return v;
    }

    private CompletableFuture<Long> seen(String image) {
        return firstSeen.computeIfAbsent(image, k -> new CompletableFuture<>());
    }

    /** Milliseconds from {@code startNanos} until the image was seen in a Deployment (waits up to 30 s). */
    double millisSince(String image, long startNanos) throws Exception {
        return (seen(image).get(30, TimeUnit.SECONDS) - startNanos) / 1e6;
    }

    @Override
    public void close() {
        watch.close();
    }
}
