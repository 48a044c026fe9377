package dev.rekon.pipeline;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Function;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import dev.rekon.core.ObjectRef;
import dev.rekon.core.RefusedException;
import dev.rekon.core.Reply;

/**
 * The one reconcile loop every path goes through (events, registry pushes, resync passes, and the status report):
 * guard → load views → pure plan (status included) → apply → one reply. One {@link ConflictRetry} wraps load,
 * plan and apply of one object; a refusal is answered per object, naming it, with the area's facts. In report
 * mode the same views give the same plan, and nothing is written.
 * <p>
 * Every write goes through the one {@link WorkQueue}: a key (the object {@link Reconciler#identity} names) is
 * worked by one thread at a time, a repeated input merges into one still waiting ({@link Reconciler#merge}),
 * different keys run in parallel up to {@code rekon.reconcile.parallelism}, and a plan that asks to be planned again
 * ({@link Reconciler.Plan#rescheduleAfter}) is queued again after its delay. Report mode writes nothing and is
 * not queued.
 */
@ApplicationScoped
public class ReconcileLoop {

    private static final Logger LOG = Logger.getLogger(ReconcileLoop.class);

    /** Keys worked at once: a few per core, since a key mostly waits on the apiserver (see the README). */
    public static final int DEFAULT_PARALLELISM = 8;
    private static final Duration SHUTDOWN = Duration.ofSeconds(10);

    @Inject
    NamespaceGuard guard;

    @ConfigProperty(name = "rekon.reconcile.parallelism", defaultValue = "" + DEFAULT_PARALLELISM)
    int parallelism = DEFAULT_PARALLELISM;

    @Inject
    LastPlans lastPlans;

    private final Rechecks rechecks = new Rechecks();
    private volatile WorkQueue queue;

    /** What kind of work a queued key is: an area's reconcile, pass, or reschedule (merged only with its own). */
    record WorkKind(Object area, String what) {
    }

    /**
     * A loop over a fixed guard, for callers outside CDI such as service tests: one worker, so that the keys of a
     * pass are worked in the order given and a table can say which writes come in which order.
     */
    public static ReconcileLoop of(NamespaceGuard guard) {
        return of(guard, 1);
    }

    /** A loop over a fixed guard working up to {@code parallelism} keys at once. */
    public static ReconcileLoop of(NamespaceGuard guard, int parallelism) {
        ReconcileLoop loop = new ReconcileLoop();
        loop.guard = guard;
        loop.parallelism = parallelism;
        loop.lastPlans = new LastPlans();
        return loop;
    }

    /** The last plan of each key, as this loop recorded them (for the areas that keep them). */
    public LastPlans lastPlans() {
        return lastPlans;
    }

    /** The process's one work queue, for paths that schedule keys themselves (a status pass, a declared push). */
    public WorkQueue queue() {
        WorkQueue q = queue;
        if (q == null) {
            synchronized (this) {
                if (queue == null) {
                    queue = new WorkQueue(parallelism);
                }
                q = queue;
            }
        }
        return q;
    }

    /**
     * Runs a pass that no request waits on (the start-up pass) on a thread of the loop's, and answers when it
     * ends. Such a pass submits its keys to the queue's workers and waits for them: on a worker, work started inside
     * work runs inline, so the pass would be serial, and a request thread is not there to lend. A pass that throws
     * completes the future exceptionally; the keys it finished stay done.
     */
    public CompletableFuture<Void> background(String name, Runnable pass) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        Thread driver = new Thread(() -> {
            try {
                pass.run();
                done.complete(null);
            } catch (RuntimeException | Error e) {
                done.completeExceptionally(e);
            }
        }, "rekon-pass-" + name);
        driver.setDaemon(true);
        driver.start();
        return done;
    }

    /** On shutdown (Knative scaling down) what waits for its time runs now, then the workers stop. */
    @PreDestroy
    void stop() {
        WorkQueue q = queue;
        if (q != null) {
            q.runWaitingNow(kind -> true, SHUTDOWN);
            q.close();
        }
    }

    /**
     * The guard's refusal for an input about {@code namespace}, or empty when Rekon may act there: for a service
     * that reads to find its keys, so that nothing is read outside {@code rekon.namespaces} either.
     */
    public Optional<Reply> refusal(String namespace, ObjectRef subject) {
        return guard.refusal(namespace, subject);
    }

    /** Brings one object in line with its plan, and answers what was done. */
    public <K, V, P extends Reconciler.Plan> Reply reconcile(Reconciler<K, V, P> area, K key) {
        return run(area, key, true, p -> { });
    }

    /** The reply reconciling would give now, from the watch caches, without writing anything. */
    public <K, V, P extends Reconciler.Plan> Reply report(Reconciler<K, V, P> area, K key) {
        return run(area, key, false, p -> { });
    }

    /** The plan for one object in report mode (no writes, no retries), or empty when it is gone or not allowed. */
    public <K, V, P extends Reconciler.Plan> Optional<P> plan(Reconciler<K, V, P> area, K key) {
        if (!area.acrossNamespaces() && !guard.allows(area.namespace(key))) {
            return Optional.empty();
        }
        Optional<V> views = area.load(key, false);
        if (views.isEmpty()) {
            lastPlans.gone(area, area.lastPlanKey(key));
        }
        return views.map(v -> planned(area, key, v));
    }

    private <K, V, P extends Reconciler.Plan> P planned(Reconciler<K, V, P> area, K key, V views) {
        P plan = area.plan(views);
        lastPlans.planned(area, area.lastPlanKey(key), views, plan);
        return plan;
    }

    /**
     * One key of a resync pass: planned from the watches in report mode and, when that plan writes and
     * {@code write}, reconciled from {@link Reconciler#writing} (the one path of an event). Empty when the object is
     * gone or not allowed; a refusal is answered as {@link #reconcile} answers it. A transient failure that outlasts
     * the retries is thrown, for the pass to count (the next pass tries the key again).
     */
    public <K, V, P extends Reconciler.Plan> Optional<Passed> pass(Reconciler<K, V, P> area, K key, boolean write) {
        return queue().run(identity(area, key), new WorkKind(area, "pass"), key, area::merge,
                k -> passHere(area, k, write));
    }

    /**
     * {@link #pass} queued behind the work someone waits on, for a resync pass that submits all its keys and then
     * waits for them: the future completes as {@link #pass} returns or throws.
     */
    public <K, V, P extends Reconciler.Plan> CompletableFuture<Optional<Passed>> submitPass(Reconciler<K, V, P> area,
            K key, boolean write) {
        if (WorkQueue.working() || ConflictRetry.inAttempt()) {
            try {
                return CompletableFuture.completedFuture(pass(area, key, write));
            } catch (RuntimeException e) {
                return CompletableFuture.failedFuture(e);
            }
        }
        return queue().submit(identity(area, key), new WorkKind(area, "pass"), key, area::merge,
                k -> passHere(area, k, write));
    }

    private <K, V, P extends Reconciler.Plan> Optional<Passed> passHere(Reconciler<K, V, P> area, K key,
            boolean write) {
        Optional<V> views;
        P plan;
        try {
            if (!area.acrossNamespaces() && !guard.allows(area.namespace(key))) {
                return Optional.empty();
            }
            views = area.load(key, false);
            if (views.isEmpty()) {
                return Optional.empty();
            }
            plan = planned(area, key, views.get());
        } catch (RefusedException e) {
            return Optional.of(new Passed(refused(e, java.util.Collections.singletonList(area.subject(key)),
                    area.facts(key)), false, null));
        }
        boolean writes = plan.writes();
        if (!writes && write) {
            // Nothing to write now, but what the plan waits for (a soak's end) is kept: after a restart the pass is
            // what finds it, and nothing else would plan the key again until the next pass.
            reschedule(area, key, plan, false);
        }
        if (!writes || !write) {
            return Optional.of(new Passed(plan.reply(), writes, plan));
        }
        Reply reply = area.writesFromPassViews()
                ? queue().run(identity(area, key), new WorkKind(area, "reconcile"), key, area::merge,
                        k -> runHere(area, k, true, p -> { }, false, views.get()))
                : reconcile(area, area.writing(key));
        return Optional.of(new Passed(reply, true, plan));
    }

    /**
     * A key's part of a resync pass: the reply (planned, or reconciled), whether its plan writes, and the
     * report-mode plan that said so (null when the plan was refused).
     */
    public record Passed(Reply reply, boolean writes, Reconciler.Plan planned) {
    }

    /**
     * Reconciles one object, then what its written plan leads to ({@code then}: the objects that depend on it, each
     * reconciled on its own after this one's retries are over, never inside them): the object's reply first, then
     * theirs, for {@link Replies#combine} to make one. Nothing follows an object that was refused, not allowed, or
     * gone.
     */
    public <K, V, P extends Reconciler.Plan> List<Reply> reconcileThen(Reconciler<K, V, P> area, K key,
            Function<P, List<Reply>> then) {
        return queue().run(identity(area, key), new WorkKind(area, "reconcileThen"), key, area::merge, k -> {
            List<P> applied = new ArrayList<>(1);
            List<Reply> parts = new ArrayList<>();
            parts.add(runHere(area, k, true, applied::add, false));
            if (!applied.isEmpty()) {
                parts.addAll(then.apply(applied.get(applied.size() - 1)));
            }
            return parts;
        });
    }

    /** Reconciles each object in turn, answering with one reply ({@link Replies}); {@code none} when there is none. */
    public <K, V, P extends Reconciler.Plan> Reply reconcileAll(Reconciler<K, V, P> area, Collection<K> keys,
            Reply none) {
        List<Reply> parts = new ArrayList<>(keys.size());
        for (K key : keys) {
            parts.add(reconcile(area, key));
        }
        return Replies.combine(parts, none);
    }

    private <K, V, P extends Reconciler.Plan> Reply run(Reconciler<K, V, P> area, K key, boolean write,
            Consumer<P> applied) {
        if (!write) {
            return runHere(area, key, false, applied, false);
        }
        return queue().run(identity(area, key), new WorkKind(area, "reconcile"), key, area::merge,
                k -> runHere(area, k, true, applied, false));
    }

    private static <K> Object identity(Reconciler<K, ?, ?> area, K key) {
        Object id = area.identity(key);
        return id != null ? id : key;
    }

    /**
     * Guard, then one retry around load, plan and apply, on the calling thread; then the plan's reschedule
     * ({@code recheck}: this run is itself one).
     */
    private <K, V, P extends Reconciler.Plan> Reply runHere(Reconciler<K, V, P> area, K key, boolean write,
            Consumer<P> applied, boolean recheck) {
        return runHere(area, key, write, applied, recheck, null);
    }

    /** The same, the first attempt planning from {@code loaded} when given (a pass's views, read moments before). */
    private <K, V, P extends Reconciler.Plan> Reply runHere(Reconciler<K, V, P> area, K key, boolean write,
            Consumer<P> applied, boolean recheck, V loaded) {
        Optional<Reply> refusal = area.acrossNamespaces() ? Optional.empty()
                : guard.refusal(area.namespace(key), area.subject(key));
        if (refusal.isPresent()) {
            return withFacts(refusal.get(), area.facts(key));
        }
        try {
            List<P> last = new ArrayList<>(1);
            Reply reply = ConflictRetry.run(fresh -> attempt(area, key, fresh ? null : loaded, fresh, write, p -> {
                last.clear();
                last.add(p);
                applied.accept(p);
            }));
            if (!last.isEmpty()) {
                reschedule(area, key, last.get(0), recheck);
            }
            return reply;
        } catch (RefusedException e) {
            return refused(e, java.util.Collections.singletonList(area.subject(key)), area.facts(key));
        }
    }

    private <K, V, P extends Reconciler.Plan> Reply attempt(Reconciler<K, V, P> area, K key, V loaded,
            boolean fresh, boolean write, Consumer<P> applied) {
        Optional<V> views = loaded != null ? Optional.of(loaded) : area.load(key, fresh);
        if (views.isEmpty()) {
            rechecks.forget(identity(area, key));
            lastPlans.gone(area, area.lastPlanKey(key));
            return area.gone(key);
        }
        P plan = planned(area, key, views.get());
        if (write) {
            Object answer = area.applied(plan);
            lastPlans.carriedOut(area, area.lastPlanKey(key), plan, answer);
            applied.accept(plan);
        }
        return plan.reply();
    }

    /**
     * A written plan that asks to be planned again: its key queued after the delay (one waiting per key). Nobody
     * waits on a reschedule's reply, so a failed one is logged; the next event or resync plans the key again.
     */
    private <K, V, P extends Reconciler.Plan> void reschedule(Reconciler<K, V, P> area, K key, P plan,
            boolean recheck) {
        Object id = identity(area, key);
        rechecks.next(id, plan, recheck).ifPresent(delay -> queue().after(id, new WorkKind(area, "again"),
                delay, Duration.ZERO, area.rescheduled(key), k -> {
                    try {
                        return queue().run(identity(area, k), new WorkKind(area, "again"), k, area::merge,
                                kk -> runHere(area, kk, true, p -> { }, true));
                    } catch (RuntimeException e) {
                        LOG.warnf("%s, planned again after its plan asked, failed: %s; the next event or resync"
                                + " plans it again", area.subject(k), e.getMessage());
                        return null;
                    }
                }));
    }

    /** The one place a permanent refusal becomes an answer: rejected, naming the object it concerns. */
    static Reply refused(RefusedException e, List<ObjectRef> subjects, Map<String, String> facts) {
        LinkedHashSet<ObjectRef> objects = new LinkedHashSet<>();
        subjects.stream().filter(java.util.Objects::nonNull).forEach(objects::add);
        if (e.ref() != null) {
            objects.add(e.ref());
        }
        return withFacts(Reply.rejected(ApiRefusals.REASON, e.getMessage(), new ArrayList<>(objects)), facts);
    }

    private static Reply withFacts(Reply reply, Map<String, String> facts) {
        Reply r = reply;
        for (Map.Entry<String, String> f : facts.entrySet()) {
            r = r.with(f.getKey(), f.getValue());
        }
        return r;
    }
}
