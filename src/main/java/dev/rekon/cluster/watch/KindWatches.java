package dev.rekon.cluster.watch;

import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;

import org.jboss.logging.Logger;

import dev.rekon.cluster.ColdStartGate;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;

/**
 * The watches of one kind, one per scope (a namespace, or {@value #EVERYWHERE} for one cluster-wide watch), each
 * filling its own {@link ViewStore} and started in the background on the first read that needs it (in a fresh
 * process, once it has answered its first event: {@link ColdStartGate}). Until its watch has synced, and for a
 * while after it could not start (as its {@link ScopeRules} say), a scope answers no store and the caller reads the
 * apiserver directly: no read ever waits for a watch to list. A per-namespace watch no read asked for in
 * {@code idleAfter} is stopped where its rules say so; a cluster-wide one stays. The watches of single objects by
 * name are kept the same way, one scope each ({@link ScopeRules#BY_NAME}). Every write stays guarded by the
 * resourceVersion it was planned from, so a store that lags by a few milliseconds costs a 409 and a fresh read,
 * never a wrong write.
 */
final class KindWatches<V> {

    /** The scope of a cluster-wide watch. */
    static final String EVERYWHERE = "*";

    private static final Logger LOG = Logger.getLogger(KindWatches.class);
    private static final Duration START_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration IDLE_AFTER = Duration.ofMinutes(10);
    /** Starts informers off the event's thread: making one loads the informer machinery. */
    private static final Executor STARTER = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "rekon-watch-start");
        t.setDaemon(true);
        return t;
    });

    private final String what;
    private final Function<String, SharedIndexInformer<GenericKubernetesResource>> informers;
    private final Supplier<ViewStore<V>> stores;
    private final ScopeRules rules;
    private final Clock clock;
    private final Duration idleAfter;
    private final Map<String, ScopeWatch<V>> scopes = new ConcurrentHashMap<>();
    private volatile long nextSweepMillis;

    /**
     * @param informers makes the not yet started informer of a scope
     * @param stores    makes the empty store a new watch fills
     */
    KindWatches(String what, Function<String, SharedIndexInformer<GenericKubernetesResource>> informers,
            Supplier<ViewStore<V>> stores) {
        this(what, informers, stores, ScopeRules.BY_NAMESPACE);
    }

    KindWatches(String what, Function<String, SharedIndexInformer<GenericKubernetesResource>> informers,
            Supplier<ViewStore<V>> stores, ScopeRules rules) {
        this(what, informers, stores, rules, Clock.systemUTC(), IDLE_AFTER);
    }

    KindWatches(String what, Function<String, SharedIndexInformer<GenericKubernetesResource>> informers,
            Supplier<ViewStore<V>> stores, ScopeRules rules, Clock clock, Duration idleAfter) {
        this.what = what;
        this.informers = informers;
        this.stores = stores;
        this.rules = rules;
        this.clock = clock;
        this.idleAfter = idleAfter;
    }

    /** The store of the scope's running, synced watch, or null for now (starting, failed a moment ago). */
    ViewStore<V> get(String scope) {
        return scope(scope).ready();
    }

    /**
     * The same, for callers off the event path that can wait: up to {@code wait} for a watch still starting to
     * sync. A watch that failed a moment ago answers null at once.
     */
    ViewStore<V> get(String scope, Duration wait) {
        try {
            return scope(scope).awaitReady(wait.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /** Whether the scope's watch is still starting (its initial list not yet synced), as opposed to failed or ready. */
    boolean loading(String scope) {
        ScopeWatch<V> watch = scopes.get(scope);
        return watch != null && watch.loading();
    }

    private ScopeWatch<V> scope(String scope) {
        long now = clock.millis();
        sweepIdle(now);
        ScopeWatch<V> watch = scopes.get(scope);
        if (watch == null || watch.spent(now)) {
            watch = replace(scope, watch);
        }
        watch.touch(now);
        return watch;
    }

    /** Puts a fresh watch in place of the one seen, unless another thread replaced it first. */
    private ScopeWatch<V> replace(String scope, ScopeWatch<V> seen) {
        ScopeWatch<V> fresh = new ScopeWatch<>(clock.millis());
        ScopeWatch<V> won = scopes.compute(scope, (k, current) -> current == seen ? fresh : current);
        if (won == fresh) {
            if (seen != null) {
                seen.stop();
            }
            STARTER.execute(() -> start(scope, fresh));
        }
        return won;
    }

    private void start(String scope, ScopeWatch<V> watch) {
        ColdStartGate.awaitOpen();
        try {
            SharedIndexInformer<GenericKubernetesResource> informer = informers.apply(scope);
            ViewStore<V> store = stores.get();
            informer.itemStore(store);
            watch.starting(informer, store);
            informer.start().toCompletableFuture().orTimeout(START_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
                    .whenComplete((ok, error) -> {
                        if (error == null) {
                            watch.synced();
                        } else {
                            failed(scope, watch, error);
                        }
                    });
        } catch (RuntimeException e) {
            failed(scope, watch, e);
        }
    }

    private void failed(String scope, ScopeWatch<V> watch, Throwable error) {
        Duration retry = rules.retryAfter(error);
        watch.failed(clock.millis(), retry.toMillis());
        rules.logFailed(LOG, what, scope, error, retry);
        if (rules.startsAgainAtOnce(error)) {
            CompletableFuture.delayedExecutor(retry.toMillis(), TimeUnit.MILLISECONDS, STARTER).execute(() -> {
                if (scopes.get(scope) == watch) {
                    scope(scope);
                }
            });
        }
    }

    /** At most once a minute: stops per-namespace watches that no read asked for in {@code idleAfter}. */
    private void sweepIdle(long now) {
        if (now < nextSweepMillis || !rules.stopsIdle()) {
            return;
        }
        nextSweepMillis = now + Math.min(60_000, idleAfter.toMillis());
        long idleSince = now - idleAfter.toMillis();
        scopes.forEach((scope, watch) -> {
            // remove(scope, watch): a watch another thread put there since is not this one to stop.
            if (!EVERYWHERE.equals(scope) && watch.idleSince(idleSince) && scopes.remove(scope, watch)) {
                watch.stop();
                LOG.debugf("stopped the idle watch of %s for %s", what, scope);
            }
        });
    }

    /** Whether any scope's watch has been asked for (and not stopped for being idle since). */
    boolean any() {
        return !scopes.isEmpty();
    }

    void stopAll() {
        scopes.forEach((scope, watch) -> {
            if (scopes.remove(scope, watch)) {
                watch.stop();
            }
        });
    }
}
