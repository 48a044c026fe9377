package dev.rekon.cluster.watch;

import java.util.concurrent.TimeUnit;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;

/**
 * One scope's watch in {@link KindWatches}, from its start in the background to its stop: answers the store its
 * informer fills only once the informer has synced and while it runs. Stopped once, by whoever took it out of the
 * map.
 */
final class ScopeWatch<V> {

    private SharedIndexInformer<GenericKubernetesResource> informer;
    private ViewStore<V> store;
    private boolean synced;
    private boolean stopped;
    private long failedAtMillis = -1;
    private long retryAfterMillis;
    private volatile long lastUsedMillis;

    ScopeWatch(long nowMillis) {
        this.lastUsedMillis = nowMillis;
    }

    synchronized void starting(SharedIndexInformer<GenericKubernetesResource> informer, ViewStore<V> store) {
        this.informer = informer;
        this.store = store;
        if (stopped) {
            informer.stop();
        }
    }

    synchronized void synced() {
        synced = true;
        notifyAll();
    }

    /** Its start failed at {@code nowMillis}; a new watch may take its place {@code retryAfterMillis} later. */
    synchronized void failed(long nowMillis, long retryAfterMillis) {
        this.retryAfterMillis = retryAfterMillis;
        failedAtMillis = nowMillis;
        if (informer != null) {
            informer.stop();
        }
        notifyAll();
    }

    void touch(long nowMillis) {
        lastUsedMillis = nowMillis;
    }

    boolean idleSince(long millis) {
        return lastUsedMillis < millis;
    }

    /** Whether its watch is still starting: neither synced, nor failed, nor stopped. */
    synchronized boolean loading() {
        return !synced && !stopped && failedAtMillis < 0;
    }

    /** The store when its informer has synced and runs, else null. */
    synchronized ViewStore<V> ready() {
        return synced && !stopped && !informer.stopped().toCompletableFuture().isDone() ? store : null;
    }

    /** Whether a new watch should take this one's place: it stopped by itself, or failed long enough ago. */
    synchronized boolean spent(long nowMillis) {
        if (failedAtMillis >= 0) {
            return nowMillis - failedAtMillis >= retryAfterMillis;
        }
        return stopped || synced && informer.stopped().toCompletableFuture().isDone();
    }

    synchronized void stop() {
        stopped = true;
        if (informer != null) {
            informer.stop();
        }
        notifyAll();
    }

    /** {@link #ready()}, waiting up to {@code millis} for a start still under way to sync. */
    synchronized ViewStore<V> awaitReady(long millis) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        for (long left = millis; !synced && !stopped && failedAtMillis < 0 && left > 0;
                left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())) {
            wait(left);
        }
        return ready();
    }
}
