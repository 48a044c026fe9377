package dev.rekon.cluster;

import java.util.concurrent.TimeUnit;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;

/**
 * One key's watch in {@link WatchCaches}, from its start in the background to its stop: answers its informer
 * only once the informer has synced and while it runs. Stopped once, by whoever took it out of the map.
 */
final class WatchEntry<T extends HasMetadata> {

    private SharedIndexInformer<T> informer;
    private boolean synced;
    private boolean stopped;
    private long failedAtMillis = -1;
    private long retryAfterMillis;
    private volatile long lastUsedMillis;

    WatchEntry(long nowMillis) {
        this.lastUsedMillis = nowMillis;
    }

    synchronized void starting(SharedIndexInformer<T> informer) {
        this.informer = informer;
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

    /** The informer when synced and running, else null. */
    synchronized SharedIndexInformer<T> ready() {
        return synced && !stopped && !informer.stopped().toCompletableFuture().isDone() ? informer : null;
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
    synchronized SharedIndexInformer<T> awaitReady(long millis) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        for (long left = millis; !synced && !stopped && failedAtMillis < 0 && left > 0;
                left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())) {
            wait(left);
        }
        return ready();
    }
}
