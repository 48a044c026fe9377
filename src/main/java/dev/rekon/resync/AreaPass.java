package dev.rekon.resync;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Function;
import java.util.function.Supplier;

import org.jboss.logging.Logger;

import dev.rekon.core.ObjectRef;
import dev.rekon.core.RefusedException;
import dev.rekon.core.Reply;
import dev.rekon.core.TransientFailureException;
import dev.rekon.pipeline.ReconcileLoop;
import dev.rekon.pipeline.Reconciler;

/**
 * The one shape of every area's resync pass: the keys the area found in its watches, each through the one loop
 * ({@link ReconcileLoop#pass}: planned in report mode, reconciled only when the plan writes and the pass may
 * write), all submitted to the loop's work queue at once and waited for (so different keys run in parallel, up to
 * {@code rekon.reconcile.parallelism}, and a key an event works at the same time waits its turn), each counted by
 * the area's {@link Counter} as it ends. A key that fails (transiently, or by a fault of Rekon's own) is counted
 * failed and left for the next pass; the pass goes on with the others. A failed listing of the keys is counted here too ({@link #listed}). In a
 * fanned-out pass ({@link ResyncScope#fanout}) an area with a reconcile event per key ({@link FannedOut}) sends
 * its keys instead, and works none of them here.
 */
public final class AreaPass {

    private static final Logger LOG = Logger.getLogger(AreaPass.class);

    /** How an area counts each key's part of a pass: on the pass's thread, one key after the other. */
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
    @SuppressWarnings("unchecked")
    public static <K, S extends K, V, P extends Reconciler.Plan> void run(ReconcileLoop loop,
            Reconciler<K, V, P> area, Iterable<S> keys, ResyncScope scope, Function<S, Counter> counters) {
        if (scope.fanout() != null && !scope.report() && area instanceof FannedOut<?> events) {
            scope.fanout().emit(area, (FannedOut<K>) events, keys, counters);
            return;
        }
        List<S> submittedKeys = new ArrayList<>();
        List<CompletableFuture<Optional<ReconcileLoop.Passed>>> submitted = new ArrayList<>();
        for (S key : keys) {
            submittedKeys.add(key);
            submitted.add(loop.submitPass(area, key, !scope.report()));
        }
        // Counted here, in the keys' order, as they end: a counter sees one key at a time, and the result lists
        // its objects in the order of the keys, however the queue's threads interleaved.
        for (int i = 0; i < submitted.size(); i++) {
            S key = submittedKeys.get(i);
            count(area.subject(key), counters.apply(key), submitted.get(i));
        }
    }

    private static void count(ObjectRef object, Counter counter,
            CompletableFuture<Optional<ReconcileLoop.Passed>> pass) {
        try {
            Optional<ReconcileLoop.Passed> passed;
            try {
                passed = pass.join();
            } catch (CompletionException e) {
                throw e.getCause() instanceof RuntimeException r ? r : e;
            }
            // A counter may read too (a report plans what a refresh would do): its failure is the key's.
            passed.ifPresent(p -> counter.count(object, p));
        } catch (TransientFailureException e) {
            counter.failed(object, "TransientFailure", e.getMessage());
        } catch (RuntimeException e) {
            // A fault of Rekon's own in one key (a bug): that key is failed and logged whole; the pass still
            // counts every other key, which the queue worked meanwhile.
            LOG.errorf(e, "resync of %s failed unexpectedly", object);
            counter.failed(object, "InternalError", e.toString());
        }
    }

    /**
     * What a pass lists to find its keys (from the apiserver or a registry): empty when the listing failed, for
     * good or for now, which is counted once as a failure of the pass with {@code reason} ({@code what} says what
     * could not be read); the pass goes on with what it could list, and the next pass lists again.
     */
    public static <T> Optional<T> listed(AreaTally tally, String reason, String what, Supplier<T> list) {
        try {
            return Optional.of(list.get());
        } catch (TransientFailureException | RefusedException e) {
            // A pass goes on with the other areas: a list that failed is one failed row, not a failed resync.
            tally.failed(null, reason, "could not read " + what + ": " + e.getMessage());
            return Optional.empty();
        }
    }
}
