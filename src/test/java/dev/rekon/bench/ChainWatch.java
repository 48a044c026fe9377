package dev.rekon.bench;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;

/**
 * What the bench sees of one cluster's objects, as an ApiServerSource sees them: a watch per kind in one namespace,
 * keeping each object as its last event showed it, so a step is seen the moment the apiserver tells and the event
 * carries the object the watch delivered (no read in between, which polling would add to every step).
 */
final class ChainWatch implements AutoCloseable {

    private final Map<String, GenericKubernetesResource> latest = new ConcurrentHashMap<>();
    private final Map<String, Watch> watches = new ConcurrentHashMap<>();

    /** Starts watching these kinds in {@code namespace}; returns once each watch is open. */
    ChainWatch(KubernetesClient client, String namespace, ResourceDefinitionContext... kinds) {
        for (ResourceDefinitionContext kind : kinds) {
            watches.put(kind.getKind(), client.genericKubernetesResources(kind).inNamespace(namespace)
                    .watch(new Watcher<>() {
                        @Override
                        public void eventReceived(Action action, GenericKubernetesResource o) {
                            String key = kind.getKind() + "/" + o.getMetadata().getName();
                            if (action == Action.DELETED) {
                                latest.remove(key);
                            } else {
                                latest.put(key, o);
                            }
                            synchronized (ChainWatch.this) {
                                ChainWatch.this.notifyAll();
                            }
                        }

                        @Override
                        public void onClose(WatcherException cause) {
                            // the bench fails on its own 60 s wait if a watch it needs is gone
                        }
                    }));
        }
    }

    /** The object of this kind and name as the watch last saw it, once {@code shows} holds of it (60 s at most). */
    synchronized GenericKubernetesResource await(String what, String kind, String name,
            Predicate<GenericKubernetesResource> shows) {
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (true) {
            GenericKubernetesResource o = latest.get(kind + "/" + name);
            if (o != null && shows.test(o)) {
                return o;
            }
            long left = (deadline - System.nanoTime()) / 1_000_000;
            if (left <= 0) {
                throw new IllegalStateException("waited 60 s for " + what);
            }
            try {
                wait(Math.min(left, 50));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted waiting for " + what, e);
            }
        }
    }

    @Override
    public void close() {
        watches.values().forEach(Watch::close);
    }
}
