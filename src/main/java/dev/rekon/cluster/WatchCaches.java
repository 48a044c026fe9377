package dev.rekon.cluster;

import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import org.jboss.logging.Logger;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;

/**
 * Watch-fed caches of one kind, one per key (a namespace, a group and namespace, or {@value #EVERYWHERE} for
 * one cluster-wide watch), each started in the background on the first read that needs it (in a fresh process, once
 * it has answered its first event: {@link ColdStartGate}). Until its watch has
 * synced, and for 30 s after it could not start (no RBAC for watch, CRD missing, apiserver down), a key answers
 * null and the caller reads the apiserver directly: no read ever waits for a watch to list. A per-namespace
 * watch no read asked for in {@code idleAfter} is stopped; a cluster-wide one stays. Callers decide what a
 * cached object may be used for: every write stays guarded by the resourceVersion it was planned from, so a
 * cache that lags by a few milliseconds costs a 409 and a fresh read, never a wrong write.
 */
public final class WatchCaches<T extends HasMetadata> {

    /** The key of a cluster-wide watch, or the end of one ({@code group/*}). */
    public static final String EVERYWHERE = "*";

    private static final Logger LOG = Logger.getLogger(WatchCaches.class);
    private static final Duration RETRY_AFTER = Duration.ofSeconds(30);
    private static final Duration CLOSED_RETRY_AFTER = Duration.ofSeconds(1);
    private static final Duration START_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration IDLE_AFTER = Duration.ofMinutes(10);
    /** Starts informers off the event's thread: making one loads the informer machinery. */
    private static final Executor STARTER = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "rekon-watch-start");
        t.setDaemon(true);
        return t;
    });

    private final String what;
    private final Function<String, SharedIndexInformer<T>> factory;
    private final Clock clock;
    private final Duration idleAfter;
    private final Map<String, WatchEntry<T>> entries = new ConcurrentHashMap<>();
    private volatile long nextSweepMillis;

    /** @param factory makes the not yet started informer for a key, indexers added */
    public WatchCaches(String what, Function<String, SharedIndexInformer<T>> factory) {
        this(what, factory, Clock.systemUTC(), IDLE_AFTER);
    }

    WatchCaches(String what, Function<String, SharedIndexInformer<T>> factory, Clock clock, Duration idleAfter) {
        this.what = what;
        this.factory = factory;
        this.clock = clock;
        this.idleAfter = idleAfter;
    }

    /** Whether a key names a cluster-wide watch, which idle eviction leaves running. */
    public static boolean clusterWide(String key) {
        return key.equals(EVERYWHERE) || key.endsWith("/" + EVERYWHERE);
    }

    /** The running, synced informer for the key, or null for now (starting, failed a moment ago). */
    public SharedIndexInformer<T> get(String key) {
        return entry(key).ready();
    }

    /**
     * The same, for callers off the event path that can wait: up to {@code wait} for a watch still starting to
     * sync. A watch that failed a moment ago answers null at once.
     */
    public SharedIndexInformer<T> get(String key, Duration wait) {
        try {
            return entry(key).awaitReady(wait.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /** Whether the key's watch is still starting (its initial list not yet synced), as opposed to failed or ready. */
    public boolean loading(String key) {
        WatchEntry<T> entry = entries.get(key);
        return entry != null && entry.loading();
    }

    private WatchEntry<T> entry(String key) {
        long now = clock.millis();
        sweepIdle(now);
        WatchEntry<T> entry = entries.get(key);
        if (entry == null || entry.spent(now)) {
            entry = replace(key, entry);
        }
        entry.touch(now);
        return entry;
    }

    /** Puts a fresh entry in place of the one seen, unless another thread replaced it first. */
    private WatchEntry<T> replace(String key, WatchEntry<T> seen) {
        WatchEntry<T> fresh = new WatchEntry<>(clock.millis());
        WatchEntry<T> won = entries.compute(key, (k, current) -> current == seen ? fresh : current);
        if (won == fresh) {
            if (seen != null) {
                seen.stop();
            }
            STARTER.execute(() -> start(key, fresh));
        }
        return won;
    }

    private void start(String key, WatchEntry<T> entry) {
        ColdStartGate.awaitOpen();
        try {
            SharedIndexInformer<T> informer = factory.apply(key);
            entry.starting(informer);
            informer.start().toCompletableFuture().orTimeout(START_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
                    .whenComplete((ok, error) -> {
                        if (error == null) {
                            entry.synced();
                        } else {
                            failed(key, entry, error);
                        }
                    });
        } catch (RuntimeException e) {
            failed(key, entry, e);
        }
    }

    /**
     * A start that failed because its connection was closed under it (a pooled connection the apiserver had just
     * closed) is tried again after {@link #CLOSED_RETRY_AFTER}, not {@link #RETRY_AFTER}: nothing is wrong with the
     * kind or the rights to watch it, and readers would go to the apiserver for half a minute for nothing.
     */
    private void failed(String key, WatchEntry<T> entry, Throwable error) {
        boolean closed = KubeErrors.closedUnderneath(error);
        Duration retry = closed ? CLOSED_RETRY_AFTER : RETRY_AFTER;
        entry.failed(clock.millis(), retry.toMillis());
        LOG.warnf("no watch cache of %s for %s for %d s, reading from the apiserver instead: %s", what, key,
                retry.toSeconds(), error);
        if (closed) {
            // Started again without waiting for a read to ask: its events are what status passes follow.
            CompletableFuture.delayedExecutor(retry.toMillis(), TimeUnit.MILLISECONDS, STARTER).execute(() -> {
                if (entries.get(key) == entry) {
                    entry(key);
                }
            });
        }
    }

    /** At most once a minute: stops per-namespace watches that no read asked for in {@code idleAfter}. */
    private void sweepIdle(long now) {
        if (now < nextSweepMillis) {
            return;
        }
        nextSweepMillis = now + Math.min(60_000, idleAfter.toMillis());
        long idleSince = now - idleAfter.toMillis();
        entries.forEach((key, entry) -> {
            // remove(key, entry): a watch another thread put there since is not this one to stop.
            if (!clusterWide(key) && entry.idleSince(idleSince) && entries.remove(key, entry)) {
                entry.stop();
                LOG.debugf("stopped the idle watch of %s for %s", what, key);
            }
        });
    }

    public void stopAll() {
        entries.forEach((key, entry) -> {
            if (entries.remove(key, entry)) {
                entry.stop();
            }
        });
    }
}
