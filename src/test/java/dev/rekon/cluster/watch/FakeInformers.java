package dev.rekon.cluster.watch;

import java.lang.reflect.Proxy;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;

/**
 * Informers that only start and stop, for the concurrency tests of {@link KindWatches}: each records its key,
 * whether it was stopped, and syncs when the test (or {@code syncAfterMillis}) says so.
 */
final class FakeInformers implements Function<String, SharedIndexInformer<GenericKubernetesResource>> {

    /** One made informer. */
    static final class Made {
        final String key;
        final CompletableFuture<Void> synced = new CompletableFuture<>();
        final CompletableFuture<Void> stopped = new CompletableFuture<>();

        Made(String key) {
            this.key = key;
        }
    }

    final List<Made> made = new CopyOnWriteArrayList<>();
    private final long syncAfterMillis;
    /** How long asking an informer whether it stopped takes: widens the windows a race needs. */
    volatile long stoppedCheckMillis;

    /** @param syncAfterMillis when each start completes by itself; negative: only when the test says so */
    FakeInformers(long syncAfterMillis) {
        this.syncAfterMillis = syncAfterMillis;
    }

    @Override
    @SuppressWarnings("unchecked")
    public SharedIndexInformer<GenericKubernetesResource> apply(String key) {
        Made m = new Made(key);
        made.add(m);
        return (SharedIndexInformer<GenericKubernetesResource>) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {SharedIndexInformer.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "start" -> {
                        if (syncAfterMillis >= 0) {
                            CompletableFuture.delayedExecutor(syncAfterMillis, java.util.concurrent.TimeUnit.MILLISECONDS)
                                    .execute(() -> m.synced.complete(null));
                        }
                        yield m.synced;
                    }
                    case "stop" -> {
                        m.stopped.complete(null);
                        yield null;
                    }
                    case "stopped" -> {
                        Thread.sleep(stoppedCheckMillis);
                        yield m.stopped;
                    }
                    case "itemStore" -> proxy;
                    case "hashCode" -> System.identityHashCode(proxy);
                    case "equals" -> proxy == args[0];
                    case "toString" -> "informer of " + key;
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }

    /** The informers made for the key that were not stopped. */
    List<Made> running(String key) {
        return made.stream().filter(m -> m.key.equals(key) && !m.stopped.isDone()).toList();
    }
}
