package dev.rekon.bench;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;

/**
 * The build each Deployment of a namespace runs, as a watch sees every version: a Deployment that runs an older
 * build than it already did counts as a rollback.
 */
final class DeploymentBuilds implements AutoCloseable {

    private final Map<String, Long> highest = new ConcurrentHashMap<>();
    private final AtomicInteger rollbacks = new AtomicInteger();
    private Watch watch;

    static DeploymentBuilds watch(KubernetesClient client, String ns, List<String> unexpected) {
        DeploymentBuilds b = new DeploymentBuilds();
        b.watch = client.apps().deployments().inNamespace(ns).watch(new Watcher<>() {
            public void eventReceived(Action action, Deployment d) {
                long build = Poster.buildOf(d.getSpec().getTemplate().getSpec().getContainers().get(0).getImage());
                Long before = b.highest.get(d.getMetadata().getName());
                if (before != null && build < before) {
                    b.rollbacks.incrementAndGet();
                    unexpected.add("rollback of " + d.getMetadata().getName() + " from build " + before + " to " + build);
                }
                b.highest.merge(d.getMetadata().getName(), build, Math::max);
            }

            public void onClose(WatcherException cause) {
            }
        });
        return b;
    }

    int rollbacks() {
        return rollbacks.get();
    }

    @Override
    public void close() {
        watch.close();
    }
}
