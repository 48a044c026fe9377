package dev.rekon.declared.plan;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;


import dev.rekon.core.ObjectRef;
import dev.rekon.core.Reply;
import dev.rekon.declared.intent.DeclaredStateStatus;
import dev.rekon.declared.plan.DeclaredPlan.Action;
import dev.rekon.manifests.LiveObject;
import dev.rekon.manifests.ManifestObjects;
import dev.rekon.manifests.plan.ManifestChecks;
import dev.rekon.manifests.plan.ManifestDiff;

/**
 * The replies and plans without object writes of the DeclaredState planner: every reply names the revision
 * ({@code revision}) and the objects applied, pruned or refused.
 */
public final class DeclaredReplies {

    private DeclaredReplies() {
    }

    static Reply of(DeclaredViews v, String revision, ManifestDiff diff, Orphans.Found orphans, boolean changes) {
        List<ObjectRef> objects = new ArrayList<>();
        diff.apply().forEach(o -> objects.add(ManifestObjects.ref(o)));
        objects.addAll(diff.pruneRefs());
        orphans.delete().forEach(o -> objects.add(o.ref()));
        // Against the revision it applied, an object that differs was changed by hand; against a new one, by git.
        boolean sameRevision = revision.equals(v.state().revision());
        String counts = diff.apply().size() + " applied (" + diff.drifted().size()
                + (sameRevision ? " drifted), " : " changed), ")
                + diff.prune().size() + " pruned, " + orphans.count() + " orphan(s)"
                + (orphans.delete().isEmpty() ? "" : ", " + orphans.delete().size() + " deleted");
        Reply reply = changes
                ? Reply.applied(diff.apply().isEmpty() && diff.prune().isEmpty() ? "OrphansDeleted" : "RevisionApplied",
                        "DeclaredState " + v.key().namespace() + "/" + v.key().name() + " at " + revision + ": " + counts,
                        objects)
                : Reply.unchanged("InSync", "DeclaredState " + v.key().namespace() + "/" + v.key().name() + " is at "
                        + revision + ": " + counts, List.of());
        return facts(reply, revision, diff.apply().stream().map(ManifestObjects::ref).toList(), diff.pruneRefs());
    }

    static Reply facts(Reply reply, String revision, List<ObjectRef> applied, List<ObjectRef> pruned) {
        return reply.with("revision", revision)
                .with("applied", applied.isEmpty() ? null : ManifestChecks.names(applied))
                .with("pruned", pruned.isEmpty() ? null : ManifestChecks.names(pruned));
    }

    /** Refused whole: Ready=False naming why; the last good revision, its inventory and its objects stay. */
    static DeclaredPlan refused(DeclaredViews v, String reason, String message, String commit) {
        String attempted = commit == null ? null : v.state().branch() + "@sha1:" + commit;
        DeclaredStatus status = new DeclaredStatus(v.state(), v.now()).attempted(attempted).ready("False", reason, message)
                .reconciling(false, reason, message);
        Reply reply = Reply.rejected(reason, "DeclaredState " + v.key().namespace() + "/" + v.key().name() + ": "
                + message, List.of(v.key().ref())).with("revision", attempted);
        return new DeclaredPlan(v.key(), v.state(), Action.REFUSED, !v.state().finalized(), null, List.of(), List.of(), List.of(),
                status.changed(), false, report(v, reason, message).withRefusal(message), reply);
    }

    /**
     * The status after the server refused one of the plan's writes for good (its identity may not write an object):
     * Ready=False naming it, the inventory as written ahead (every object that may exist stays recorded).
     */
    static DeclaredStateStatus refusedOnWrite(DeclaredPlan plan, String message, Instant now) {
        DeclaredStateStatus base = plan.writeAhead() != null ? plan.writeAhead() : plan.state().recorded();
        return new DeclaredStatus(plan.state(), base, now).ready("False", "ApiRefused", message)
                .reconciling(false, "ApiRefused", message).changed();
    }

    static DeclaredPlan suspended(DeclaredViews v) {
        String message = "spec.suspend is true: the branch is not read, nothing is applied or pruned";
        DeclaredStatus status = new DeclaredStatus(v.state(), v.now()).reconciling(false, "Suspended", message);
        return new DeclaredPlan(v.key(), v.state(), Action.SUSPENDED, !v.state().finalized(), null, List.of(), List.of(),
                List.of(), status.changed(), false, report(v, "Suspended", message), Reply.unchanged("Suspended",
                        "DeclaredState " + v.key().namespace() + "/" + v.key().name() + ": " + message, List.of()));
    }

    /** A report for a DeclaredState whose tip no input of this replica has listed: it says so, and writes nothing. */
    static DeclaredPlan unchecked(DeclaredViews v) {
        String message = "the branch tip has not been read on this replica yet; the next event or resync pass reads it";
        return new DeclaredPlan(v.key(), v.state(), Action.NONE, false, null, List.of(), List.of(), List.of(), null,
                false, report(v, "TipNotChecked", message), Reply.unchanged("TipNotChecked", "DeclaredState "
                        + v.key().namespace() + "/" + v.key().name() + ": " + message, List.of()));
    }

    static Reply finalized(DeclaredViews v, List<LiveObject> deleted) {
        List<ObjectRef> refs = deleted.stream().map(LiveObject::ref).toList();
        String what = v.state().prune() ? deleted.size() + " object(s) it applied deleted"
                : "spec.prune is false: the objects it applied stay";
        return Reply.applied("Finalized", "DeclaredState " + v.key().namespace() + "/" + v.key().name()
                + " is deleted: " + what, refs).with("pruned", refs.isEmpty() ? null : ManifestChecks.names(refs));
    }

    /** The page's row of a plan that applies nothing: what the status holds (its orphans too), with this reason. */
    static DeclaredPlan.Report report(DeclaredViews v, String reason, String message) {
        return new DeclaredPlan.Report(v.state().revision(), v.state().recorded().ready(),
                reason, message, v.state().inventory().size(), 0, List.of(), List.of(),
                Orphans.of(v, Set.of(), Set.of()).orphans(), null);
    }
}
