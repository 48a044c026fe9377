package dev.rekon.pipeline;

import java.util.Map;
import java.util.Optional;

import dev.rekon.core.ObjectRef;
import dev.rekon.core.Reply;

/**
 * What an area supplies to the one {@link ReconcileLoop} for one kind of object it reconciles: how to read the
 * views of the object a key names, the pure plan made from them (its status included), and the writes of that
 * plan. An area never orchestrates: guard, retries, refusals and the reply are the loop's (as JOSDK's
 * {@code Reconciler} returns an {@code UpdateControl} and leaves the rest to the framework).
 *
 * @param <K> names one object (what an event, a push, a resync or a status request is about)
 * @param <V> the views a plan is made from, every input explicit (now included)
 * @param <P> the plan: what to write, what the status should be, and the reply that says so
 */
public interface Reconciler<K, V, P extends Reconciler.Plan> {

    /** A plan knows the reply it gives once written, or in report mode without writing. */
    interface Plan {
        Reply reply();

        /**
         * Whether applying the plan writes anything: a resync reconciles only the keys whose report-mode plan
         * writes. By default, when it answers applied.
         */
        default boolean writes() {
            return reply().outcome() == dev.rekon.core.Outcome.APPLIED;
        }

        /**
         * Plan the key again after this delay, once this plan is written (JOSDK's {@code rescheduleAfter}): for
         * what the plan cannot finish now, such as a rollout to wait for. None by default.
         */
        default Optional<java.time.Duration> rescheduleAfter() {
            return Optional.empty();
        }

        /**
         * Whether {@link #rescheduleAfter} polls (asks again and again until something else changes, such as a
         * rollout to wait for) rather than naming a deadline (a soak's end): a poll that finds nothing to write waits
         * longer each time ({@link Rechecks}). No by default.
         */
        default boolean rescheduleBacksOff() {
            return false;
        }
    }

    /** The namespace the object lives in, checked against {@code rekon.namespaces}; null when cluster-scoped. */
    default String namespace(K key) {
        return subject(key).namespace();
    }

    /**
     * Whether the key names objects across namespaces that its gateway reads only where Rekon may act (a module's
     * Deployments): then the loop has no one namespace to guard, and {@link #namespace} is not asked.
     */
    default boolean acrossNamespaces() {
        return false;
    }

    /** The object a reply names when an attempt has nothing better: a refusal, a namespace not allowed. */
    ObjectRef subject(K key);

    /**
     * Reads the views for one attempt. {@code fresh} after a lost race: the reads bypass the watch caches, since
     * the cache may not have seen the write that won. Empty when the object is gone.
     */
    Optional<V> load(K key, boolean fresh);

    /** The answer when the object is gone (deleted since the event, or never there). */
    Reply gone(K key);

    /** Pure: views in, plan out. The same views always give the same plan. */
    P plan(V views);

    /**
     * Writes the plan: the objects, then the status when it differs from what the views held (skipped when
     * equal), each guarded by the resourceVersion the plan was made from. Throws what the gateway sorted:
     * {@link dev.rekon.core.ConflictException} (planned again), {@link dev.rekon.core.RefusedException}
     * (answered rejected), any other {@link dev.rekon.core.TransientFailureException} (503).
     */
    void apply(P plan);

    /**
     * Writes the plan as {@link #apply} does, answering what the writes answered: the resourceVersions a server-side
     * apply gave the objects, say, so that a later read knows them unchanged. The loop keeps none of it, only hands
     * it to {@link #rememberCarriedOut}. Null (nothing) by default.
     */
    default Object applied(P plan) {
        apply(plan);
        return null;
    }

    /**
     * The key a resync's write starts from, after its report-mode plan from the watches said it writes: reading
     * again what a watch may hide or show late (the key itself by default).
     */
    default K writing(K key) {
        return key;
    }

    /**
     * Whether a resync's write starts from the very views its report-mode plan was made from, instead of reading
     * again from {@link #writing}: for an area whose views hold nothing a watch could show late, so that the second
     * read would only repeat the first (its writes stay guarded; a lost race reads fresh). False by default.
     */
    default boolean writesFromPassViews() {
        return false;
    }

    /**
     * What one thread at a time works on: keys of the same identity never run at once, in any area or kind of work.
     * The object the key names ({@link #subject}) by default.
     */
    default Object identity(K key) {
        return subject(key);
    }

    /**
     * The one key to run when {@code newer} arrives while {@code pending} (of the same identity) still waits its
     * turn, or null to run both, one after the other. By default a repeated input (equal keys) runs once; an area
     * whose keys carry what an input is about (a rollout's Images) merges only what loses nothing.
     */
    default K merge(K pending, K newer) {
        return pending.equals(newer) ? newer : null;
    }

    /** The key a plan's reschedule ({@link Plan#rescheduleAfter}) runs with: the key itself by default. */
    default K rescheduled(K key) {
        return key;
    }

    /**
     * The name under which the loop keeps this area's last plan of each key ({@link LastPlans}), for a page that
     * shows them; null (the default): none kept.
     */
    default String lastPlansArea() {
        return null;
    }

    /** Which of the area's last plans a key's plan replaces: the key's {@link #identity} by default. */
    default Object lastPlanKey(K key) {
        return identity(key);
    }

    /**
     * What the loop keeps of a plan made from these views when {@link #lastPlansArea} names the area (a page row),
     * or null to keep nothing of the key. Pure, as the plan is.
     */
    default Object remember(V views, P plan) {
        return null;
    }

    /**
     * What the loop keeps of a plan once it was carried out in full, in place of the plan and what was remembered
     * of it: how the plan left the objects, when the area can say so, so that what only the plan carried (the
     * bodies it applied, its report) is let go once written. {@code answer} is what its writes answered
     * ({@link #applied}; null: nothing). The one place an area says how a written plan left things: null (the
     * default) keeps the plan beside what was remembered. Pure.
     */
    default Object rememberCarriedOut(Object remembered, P plan, Object answer) {
        return null;
    }

    /** The area's facts a refusal about this key carries (a module's name and versions); none by default. */
    default Map<String, String> facts(K key) {
        return Map.of();
    }
}
