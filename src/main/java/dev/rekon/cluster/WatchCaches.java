package dev.rekon.cluster;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import org.jboss.logging.Logger;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;

/**
 * Watch-fed caches of one kind, one per key (a namespace, or a group and namespace), each started on the first
 * read that needs it. A cache that cannot start (no RBAC for watch, CRD missing, apiserver down) answers null
 * and is not tried again for 30 s, so callers fall back to reading the apiserver. Callers decide what a cached
 * object may be used for: every write stays guarded by the resourceVersion it was planned from, so a cache
 * that lags by a few milliseconds costs a 409 and a fresh read, never a wrong write.
 */
public final class WatchCaches<T extends HasMetadata> {

    private static final Logger LOG = Logger.getLogger(WatchCaches.class);
    private static final long RETRY_AFTER_MILLIS = 30_000;

    private final String what;
    private final Function<String, SharedIndexInformer<T>> factory;
    private final Map<String, SharedIndexInformer<T>> informers = new ConcurrentHashMap<>();
    private final Map<String, Long> failedAt = new ConcurrentHashMap<>();

    /** @param factory makes the not yet started informer for a key, indexers added */
    public WatchCaches(String what, Function<String, SharedIndexInformer<T>> factory) {
        this.what = what;
        this.factory = factory;
    }

    /** The running, synced informer for the key, or null when there is none for now. */
    public SharedIndexInformer<T> get(String key) {
        SharedIndexInformer<T> existing = informers.get(key);
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
            return existing != null ? existing : start(key);
        }
    }

    private SharedIndexInformer<T> start(String key) {
        SharedIndexInformer<T> informer = null;
        try {
            informer = factory.apply(key);
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
            LOG.warnf("no watch cache of %s for %s for 30 s, reading from the apiserver instead: %s", what, key, e);
            return null;
        }
    }

    public void stopAll() {
        informers.values().forEach(SharedIndexInformer::stop);
        informers.clear();
    }
}
