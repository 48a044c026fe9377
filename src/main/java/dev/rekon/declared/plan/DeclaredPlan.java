package dev.rekon.declared.plan;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.core.ObjectRef;
import dev.rekon.core.Reply;
import dev.rekon.declared.DeclaredKey;
import dev.rekon.declared.intent.DeclaredStateStatus;
import dev.rekon.declared.intent.DeclaredStateView;
import dev.rekon.manifests.LiveObject;
import dev.rekon.manifests.ManifestBodies;
import dev.rekon.manifests.plan.ManifestWrites;
import dev.rekon.manifests.plan.WriteResult;
import dev.rekon.pipeline.Reconciler;

/**
 * What one attempt does to one DeclaredState, in order: add its finalizer ({@code addFinalizer}), record
 * {@code writeAhead} as its status (the inventory with every object about to be created; null: nothing new),
 * apply {@code apply} (staged), delete {@code prune} then {@code orphanDeletes} (each guarded by what was seen),
 * write {@code status} (null: already so; the status of a write the server refused is {@link #record}'s), and,
 * when it is being deleted, let it go ({@code removeFinalizer}): the shared {@link ManifestWrites}, its inventory
 * kept in its status.
 * {@code report} is what the status page shows of it.
 */
public record DeclaredPlan(DeclaredKey key, DeclaredStateView state, Action action, boolean addFinalizer,
        DeclaredStateStatus writeAhead, List<ObjectNode> apply, List<LiveObject> prune, List<LiveObject> orphanDeletes,
        DeclaredStateStatus status,
        boolean removeFinalizer, Report report, Reply reply, ManifestBodies bodies)
        implements Reconciler.Plan, ManifestWrites<DeclaredStateStatus> {

    /**
     * How long a DeclaredState whose Ready waits for what it applied to roll out waits before it is planned again:
     * its objects' own events usually come first; this is for the rollout that finishes without one reaching Rekon.
     */
    public static final Duration ROLLOUT_RECHECK = Duration.ofSeconds(10);

    /** What the plan does, for Events and the page. */
    public enum Action {
        APPLY, NONE, REFUSED, SUSPENDED, FINALIZE
    }

    /**
     * How many orphans a status lists ({@code status.orphans}, the oldest first; {@code status.orphanCount} counts
     * all): a status list is bounded, as Kubernetes bounds them, since every DeclaredState of a namespace records the
     * namespace's orphans. The page's report lists them all. An orphan not listed has no {@code since} recorded:
     * its grace period starts when it is listed, so {@code Delete} never deletes one earlier than before.
     */
    public static final int LISTED_ORPHANS = 20;

    /** An object git never declared, since when it is known, and when it is deleted ({@code Delete}) or null. */
    public record Orphan(ObjectRef ref, Instant since, Instant deleteAfter) {
    }

    /**
     * What the page shows: the revision applied (or to be), Ready's status, reason and message, the objects in the
     * inventory, how many objects the plan applies, what is rolling out, what a prune would delete, the orphans, and the refusal that holds the
     * branch tip back (null when none).
     */
    public record Report(String revision, String ready, String reason, String message, int objects,
            int pendingApply, List<String> rollingOut, List<ObjectRef> pendingPrunes, List<Orphan> orphans, String refusal) {

        public Report {
            rollingOut = List.copyOf(rollingOut);
            pendingPrunes = List.copyOf(pendingPrunes);
            orphans = List.copyOf(orphans);
        }

        Report withRefusal(String why) {
            return new Report(revision, "False", reason, message, objects, pendingApply, rollingOut, pendingPrunes, orphans,
                    why);
        }
    }

    /** A plan whose objects are held whole. */
    public DeclaredPlan(DeclaredKey key, DeclaredStateView state, Action action, boolean addFinalizer,
            DeclaredStateStatus writeAhead, List<ObjectNode> apply, List<LiveObject> prune,
            List<LiveObject> orphanDeletes, DeclaredStateStatus status, boolean removeFinalizer, Report report, Reply reply) {
        this(key, state, action, addFinalizer, writeAhead, apply, prune, orphanDeletes, status, removeFinalizer, report,
                reply, ManifestBodies.WHOLE);
    }

    public DeclaredPlan {
        key = key.withoutReads();
        apply = List.copyOf(apply);
        prune = List.copyOf(prune);
        orphanDeletes = List.copyOf(orphanDeletes);
    }

    /** This plan answering {@code other} instead. */
    DeclaredPlan withReply(Reply other) {
        return new DeclaredPlan(key, state, action, addFinalizer, writeAhead, apply, prune, orphanDeletes, status,
                removeFinalizer, report, other, bodies);
    }

    /**
     * While what it applied rolls out (Ready Unknown, Progressing), planned again after {@link #ROLLOUT_RECHECK} on
     * the loop's work queue, so that Ready follows the rollout without waiting for the resync.
     */
    @Override
    public Optional<Duration> rescheduleAfter() {
        return report != null && !report.rollingOut().isEmpty() ? Optional.of(ROLLOUT_RECHECK) : Optional.empty();
    }

    /** The rollout recheck polls: one that finds nothing new waits longer each time (the loop's backoff). */
    @Override
    public boolean rescheduleBacksOff() {
        return true;
    }

    @Override
    public List<LiveObject> deletes() {
        return java.util.stream.Stream.concat(prune.stream(), orphanDeletes.stream()).toList();
    }

    /**
     * The status once the object writes came to {@code result}: the one planned, or, when the server refused one of
     * them for good (its identity may not write an object), Ready=False naming it with every object that may exist
     * still recorded.
     */
    @Override
    public DeclaredStateStatus record(WriteResult result) {
        return result instanceof WriteResult.Refused r ? DeclaredReplies.refusedOnWrite(this, r.message(), r.at())
                : status;
    }

    /** A plan that writes says so on the DeclaredState: a refusal as a warning, a change as what it did. */
    @Override
    public Reply event() {
        if (!writes() || action == Action.NONE && status == null) {
            return null;
        }
        return reply.outcome() == dev.rekon.core.Outcome.REJECTED || action != Action.NONE ? reply : null;
    }

    /** Whether carrying it out writes anything at all. */
    public boolean writes() {
        return addFinalizer || writeAhead != null || !apply.isEmpty() || !prune.isEmpty() || !orphanDeletes.isEmpty()
                || status != null || removeFinalizer;
    }
}
