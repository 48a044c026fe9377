package dev.rekon.pipeline;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.rekon.core.ObjectRef;
import dev.rekon.core.RefusedException;
import dev.rekon.core.Reply;

/**
 * The one reconcile loop every path goes through (events, registry pushes, resync passes, and the status report):
 * guard → load views → pure plan (status included) → apply → one reply. One {@link ConflictRetry} wraps load,
 * plan and apply of one object; a refusal is answered per object, naming it, with the area's facts. In report
 * mode the same views give the same plan, and nothing is written.
 */
@ApplicationScoped
public class ReconcileLoop {

    @Inject
    NamespaceGuard guard;

    /** A loop over a fixed guard, for callers outside CDI such as service tests. */
    public static ReconcileLoop of(NamespaceGuard guard) {
        ReconcileLoop loop = new ReconcileLoop();
        loop.guard = guard;
        return loop;
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
        return area.load(key, false).map(area::plan);
    }

    /**
     * One key of a resync pass: planned from the watches in report mode and, when that plan writes and
     * {@code write}, reconciled from {@link Reconciler#writing} (the one path of an event). Empty when the object is
     * gone or not allowed; a refusal is answered as {@link #reconcile} answers it. A transient failure that outlasts
     * the retries is thrown, for the pass to count (the next pass tries the key again).
     */
    public <K, V, P extends Reconciler.Plan> Optional<Passed> pass(Reconciler<K, V, P> area, K key, boolean write) {
        Optional<P> plan;
        try {
            plan = plan(area, key);
        } catch (RefusedException e) {
            return Optional.of(new Passed(refused(e, java.util.Collections.singletonList(area.subject(key)),
                    area.facts(key)), false, null));
        }
        if (plan.isEmpty()) {
            return Optional.empty();
        }
        boolean writes = plan.get().writes();
        return Optional.of(new Passed(writes && write ? reconcile(area, area.writing(key)) : plan.get().reply(),
                writes, plan.get()));
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
        List<P> applied = new ArrayList<>(1);
        List<Reply> parts = new ArrayList<>();
        parts.add(run(area, key, true, applied::add));
        if (!applied.isEmpty()) {
            parts.addAll(then.apply(applied.get(applied.size() - 1)));
        }
        return parts;
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
        Optional<Reply> refusal = area.acrossNamespaces() ? Optional.empty()
                : guard.refusal(area.namespace(key), area.subject(key));
        if (refusal.isPresent()) {
            return withFacts(refusal.get(), area.facts(key));
        }
        try {
            return ConflictRetry.run(fresh -> attempt(area, key, fresh, write, applied));
        } catch (RefusedException e) {
            return refused(e, java.util.Collections.singletonList(area.subject(key)), area.facts(key));
        }
    }

    private static <K, V, P extends Reconciler.Plan> Reply attempt(Reconciler<K, V, P> area, K key, boolean fresh,
            boolean write, Consumer<P> applied) {
        Optional<V> views = area.load(key, fresh);
        if (views.isEmpty()) {
            return area.gone(key);
        }
        P plan = area.plan(views.get());
        if (write) {
            area.apply(plan);
            applied.accept(plan);
        }
        return plan.reply();
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
