package dev.rekon.resync;

import java.util.function.Function;

import dev.rekon.core.ObjectRef;
import dev.rekon.core.Reply;
import dev.rekon.core.TransientFailureException;
import dev.rekon.pipeline.ReconcileLoop;
import dev.rekon.pipeline.Reconciler;

/**
 * The one shape of every area's resync pass: the keys the area found in its watches, each through the one loop
 * ({@link ReconcileLoop#pass}: planned in report mode, reconciled only when the plan writes and the pass may
 * write), one after the other, counted by the area's {@link Counter}. A key that fails transiently is counted
 * failed and left for the next pass; the pass goes on with the others.
 */
public final class AreaPass {

    /** How an area counts each key's part of a pass. */
    public interface Counter {

        /** {@code writes}: the key's plan writes (or, in report mode, would write). */
        void count(ObjectRef object, Reply reply, boolean writes);

        /** One key's part of the pass; by its reply, unless the area counts by its plan. */
        default void count(ObjectRef object, ReconcileLoop.Passed passed) {
            count(object, passed.reply(), passed.writes());
        }

        /** Not brought in line this pass; the next pass tries again. */
        void failed(ObjectRef object, String reason, String message);
    }

    private AreaPass() {
    }

    public static <K, V, P extends Reconciler.Plan> void run(ReconcileLoop loop, Reconciler<K, V, P> area,
            Iterable<K> keys, ResyncScope scope, Counter counter) {
        run(loop, area, keys, scope, (K key) -> counter);
    }

    /**
     * The same, with a counter for each key: for an area whose key is many objects (a module's Deployments of one
     * channel), so that a key's failure is counted against each of them.
     */
    public static <K, S extends K, V, P extends Reconciler.Plan> void run(ReconcileLoop loop,
            Reconciler<K, V, P> area, Iterable<S> keys, ResyncScope scope, Function<S, Counter> counters) {
        for (S key : keys) {
            ObjectRef object = area.subject(key);
            Counter counter = counters.apply(key);
            try {
                loop.pass(area, key, !scope.report()).ifPresent(p -> counter.count(object, p));
            } catch (TransientFailureException e) {
                counter.failed(object, "TransientFailure", e.getMessage());
            }
        }
    }
}
