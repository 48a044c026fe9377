package dev.rekon.declared.plan;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.core.ObjectRef;
import dev.rekon.declared.intent.DeclaredStateStatus;
import dev.rekon.declared.intent.DeclaredStateView;
import dev.rekon.declared.plan.DeclaredPlan.Action;
import dev.rekon.declared.plan.DesiredObjects.Desired;
import dev.rekon.manifests.Identity;
import dev.rekon.manifests.LiveObject;
import dev.rekon.manifests.ManifestBodies;
import dev.rekon.manifests.inventory.Inventory;
import dev.rekon.manifests.plan.ManifestChecks;
import dev.rekon.manifests.plan.ManifestDiff;
import dev.rekon.manifests.plan.ManifestPlanner;
import dev.rekon.manifests.plan.ServedKinds;

/**
 * Decides what one DeclaredState needs, from its views alone. A revision is atomic: before any write it is refused
 * whole (the last good one stays, nothing is pruned) when its branch could not be read, a file does not parse, two
 * documents declare one object, an object is of a kind the server does not serve (and no CRD of the revision
 * declares), an object lies outside {@code spec.namespaces} or {@code rekon.namespaces}, or
 * an object exists that this DeclaredState did not apply and may not adopt. Otherwise the shared engine's diff:
 * missing and drifted objects applied in stages, what the revision dropped pruned in reverse; orphans listed (and,
 * with {@code Delete}, deleted after their grace period); Ready only once what was applied is ready. A
 * DeclaredState being deleted deletes what it applied (when {@code prune}) and lets go. The same views always give
 * the same plan; a converged DeclaredState gives one without writes.
 */
public final class DeclaredPlanner {

    private DeclaredPlanner() {
    }

    public static DeclaredPlan plan(DeclaredViews v) {
        if (v.source() instanceof SourceState.Deleting) {
            return letGo(v);
        }
        Optional<String> namespaces = SpecChecks.namespaces(v);
        if (namespaces.isPresent()) {
            return DeclaredReplies.refused(v, "NamespaceNotAllowed", namespaces.get(), null);
        }
        if (v.source() instanceof SourceState.Refused r) {
            return DeclaredReplies.refused(v, r.reason(), r.message(), r.commit());
        }
        if (v.source() instanceof SourceState.Unchecked) {
            return DeclaredReplies.unchecked(v);
        }
        return v.source() instanceof SourceState.Read r ? apply(v, r) : DeclaredReplies.suspended(v);
    }

    private static DeclaredPlan apply(DeclaredViews v, SourceState.Read read) {
        DeclaredStateView s = v.state();
        List<Desired> desired = DesiredObjects.of(read.documents(), s.namespaces().get(0), v.key().owner(),
                v.clusterKinds());
        List<String> duplicates = DesiredObjects.duplicates(desired);
        if (!duplicates.isEmpty()) {
            return DeclaredReplies.refused(v, "DuplicateObject", "the revision declares the same object twice: "
                    + String.join("; ", duplicates) + "; keep one of each", read.commit());
        }
        List<ObjectNode> objects = desired.stream().map(Desired::object).toList();
        Optional<ObjectNode> unserved = ServedKinds.firstUnserved(objects, v.unserved());
        if (unserved.isPresent()) {
            Desired d = desired.stream().filter(x -> x.object() == unserved.get()).findFirst().orElseThrow();
            return DeclaredReplies.refused(v, ServedKinds.REASON, d.source().where() + ": " + d.ref() + " is of kind "
                    + d.ref().kind() + " in " + d.ref().apiVersion() + ", which the API server does not serve; install"
                    + " its CustomResourceDefinition (or declare it in this revision) or fix apiVersion and kind;"
                    + " nothing of this revision was applied", read.commit());
        }
        Optional<ManifestChecks.Refusal> scope = SpecChecks.scope(v, objects);
        if (scope.isPresent()) {
            return DeclaredReplies.refused(v, scope.get().reason(), scope.get().message(), read.commit());
        }
        List<ObjectRef> recorded = s.inventory();
        Set<String> recordedKeys = recorded.stream().map(Identity::key).collect(Collectors.toSet());
        Set<String> adopted = desired.stream().filter(Desired::adopt).map(d -> Identity.key(d.ref()))
                .collect(Collectors.toSet());
        List<ObjectRef> taken = ManifestChecks.taken(objects, v::live, l -> v.key().owner().equals(l.owner())
                || recordedKeys.contains(Identity.key(l.ref())) || adopted.contains(Identity.key(l.ref())));
        if (!taken.isEmpty()) {
            DeclaredPlan refused = DeclaredReplies.refused(v, "Conflict", "the revision declares "
                    + ManifestChecks.names(taken) + ", which exist" + (taken.size() == 1 ? "s" : "") + " and "
                    + (taken.size() == 1 ? "was" : "were") + " not applied by this DeclaredState; annotate the manifest"
                    + " rekon.dev/adopt: \"true\" to take it over, or delete or rename it; nothing of this revision was"
                    + " applied", read.commit());
            return refused.withReply(refused.reply().with("refused", ManifestChecks.names(taken)));
        }
        List<ObjectRef> prunable = !s.prune() ? List.of() : recorded.stream().filter(r -> !"Namespace".equals(r.kind())
                || v.live(r) != null && v.key().owner().equals(v.live(r).owner())).toList();
        ManifestBodies bodies = DesiredObjects.bodies(desired);
        ManifestDiff diff = ManifestPlanner.diff(objects, bodies, v::live, v.key().owner(), prunable);
        List<ObjectRef> after = desired.stream().map(Desired::ref).toList();
        Set<String> declared = after.stream().map(Identity::key).collect(Collectors.toSet());
        Orphans.Found orphans = Orphans.of(v, declared, recordedKeys);
        List<String> rollingOut = rollingOut(v, desired, diff);
        String revision = s.branch() + "@sha1:" + read.commit();
        DeclaredStateStatus writeAhead = writeAhead(v, recorded, after, revision);
        DeclaredStatus status = new DeclaredStatus(s, v.now()).revision(revision).attempted(revision).inventory(after)
                .orphans(orphans.orphans(), orphans.count());
        String ready = rollingOut.isEmpty() ? "True" : "Unknown";
        String message = rollingOut.isEmpty() ? "applied revision " + revision + ": " + after.size() + " object(s) ready"
                : "revision " + revision + " is rolling out: " + String.join("; ", rollingOut);
        status.ready(ready, rollingOut.isEmpty() ? "ReconciliationSucceeded" : "Progressing", message)
                .reconciling(!rollingOut.isEmpty(), rollingOut.isEmpty() ? "Succeeded" : "Progressing", message);
        // A report plans from the tip the last pass listed, and says since when.
        String shown = read.checked() == null ? message : message + " (tip not checked since " + read.checked() + ")";
        DeclaredPlan.Report report = new DeclaredPlan.Report(revision, ready,
                rollingOut.isEmpty() ? "ReconciliationSucceeded" : "Progressing", shown, after.size(), diff.apply().size(),
                rollingOut,
                diff.pruneRefs(), orphans.orphans(), null);
        boolean changes = !diff.converged() || !orphans.delete().isEmpty();
        return new DeclaredPlan(v.key(), v.state(), changes ? Action.APPLY : Action.NONE, !s.finalized(), writeAhead, diff.apply(),
                diff.prune(), orphans.delete(), status.changed(), false, report,
                DeclaredReplies.of(v, revision, diff, orphans, changes), bodies);
    }

    /** The inventory with every object about to be created recorded, or null when all already are. */
    private static DeclaredStateStatus writeAhead(DeclaredViews v, List<ObjectRef> recorded, List<ObjectRef> after, String rev) {
        Inventory union = Inventory.of(recorded).with(Inventory.of(after).objects());
        if (union.objects().size() == recorded.size()) {
            return null;
        }
        return new DeclaredStatus(v.state(), v.now()).inventory(union.refs())
                .reconciling(true, "Progressing", "applying revision " + rev).changed();
    }

    private static List<String> rollingOut(DeclaredViews v, List<Desired> desired, ManifestDiff diff) {
        Set<String> applying = diff.apply().stream().map(o -> Identity.key(dev.rekon.manifests.ManifestObjects.ref(o)))
                .collect(Collectors.toSet());
        List<String> out = new ArrayList<>();
        for (Desired d : desired) {
            LiveObject live = v.live(d.ref());
            String waiting = applying.contains(Identity.key(d.ref())) ? Health.hasRollout(d.ref().kind())
                    ? "being applied" : null : live == null ? null : Health.waitingFor(live);
            if (waiting != null) {
                out.add(d.ref() + " " + waiting);
            }
        }
        return out;
    }

    /** Being deleted: what it applied goes in reverse stage order (when {@code prune}), then the finalizer. */
    private static DeclaredPlan letGo(DeclaredViews v) {
        DeclaredStateView s = v.state();
        List<LiveObject> delete = !s.prune() ? List.of() : ManifestPlanner.deleteOrder(s.inventory()
                .stream().map(v::live).filter(Objects::nonNull)
                .filter(l -> !"Namespace".equals(l.ref().kind()) || v.key().owner().equals(l.owner())).toList(),
                LiveObject::ref);
        return new DeclaredPlan(v.key(), v.state(), Action.FINALIZE, false, null, List.of(), delete, List.of(), null,
                s.finalized(), DeclaredReplies.report(v, "Deleting", "being deleted"),
                DeclaredReplies.finalized(v, delete));
    }
}
