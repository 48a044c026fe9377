package dev.rekon.modules.lifecycle.plan;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.core.ObjectRef;
import dev.rekon.manifests.LiveObject;
import dev.rekon.manifests.ManifestObjects;
import dev.rekon.manifests.plan.ManifestDiff;
import dev.rekon.manifests.plan.ManifestPlanner;
import dev.rekon.modules.lifecycle.intent.DeclaredModule;
import dev.rekon.modules.lifecycle.intent.ModuleState;
import dev.rekon.modules.lifecycle.intent.ModuleStatus;
import dev.rekon.manifests.inventory.Inventory;
import dev.rekon.modules.lifecycle.plan.LifecyclePlan.Action;

/**
 * Decides what one module of one Kyma needs, from its views alone: install what the Kyma lists, upgrade it to
 * what its channel offers (applying the new manifest, then pruning what the new version dropped), take back what
 * drifted, refuse what the policy forbids, stop managing what is {@code managed: false}, and uninstall in order
 * what the Kyma no longer lists ({@link UninstallPlanner}). The same views always give the same plan; a module
 * in line with its release gives a plan without writes.
 */
public final class LifecyclePlanner {

    private LifecyclePlanner() {
    }

    public static LifecyclePlan plan(LifecycleViews v) {
        DeclaredModule declared = v.declared();
        if (declared == null) {
            return UninstallPlanner.plan(v);
        }
        if (!declared.managed()) {
            return LifecyclePlan.only(v, Action.UNMANAGE, unmanaged(v), LifecycleReplies.unchanged(v, "Unmanaged", "module " + v.key().module()
                            + " is not managed (managed: false); its objects stay as they are"))
                    .forgetting(v.inventory() != null);
        }
        if (v.resolution() instanceof Resolution.Unavailable u) {
            return refusedKeeping(v, u.reason(), u.message());
        }
        return apply(v, ((Resolution.Found) v.resolution()).release());
    }

    private static LifecyclePlan apply(LifecycleViews v, Release r) {
        List<ObjectNode> desired = desired(v, r);
        Optional<ReleaseChecks.Refusal> refusal = ReleaseChecks.scope(desired, v.namespaces(), v.key().module())
                .or(() -> ReleaseChecks.version(v.inventory(), r, v))
                .or(() -> ReleaseChecks.conflicts(desired, v));
        if (refusal.isPresent()) {
            return refusedKeeping(v, refusal.get().reason(), refusal.get().message());
        }
        List<Inventory.Entry> entries = new ArrayList<>();
        for (ObjectNode o : desired) {
            ObjectRef ref = ManifestObjects.ref(o);
            boolean isDefaultCr = o == desired.get(desired.size() - 1) && r.manifest().defaultCr() != null
                    && v.declared().createAndDeleteCr();
            entries.add(new Inventory.Entry(ref, created(v, ref, v.live(ref)), isDefaultCr));
        }
        Inventory current = v.inventory() == null ? Inventory.empty(v.key().module()) : v.inventory();
        Inventory after = new Inventory(v.key().module(), r.version(), r.channel(), r.template(), entries,
                current.resourceVersion());
        ManifestDiff diff = ManifestPlanner.diff(desired, v::live, v.key().module(), prunable(current));
        Action action = v.inventory() == null || v.inventory().version() == null ? Action.INSTALL
                : !r.version().equals(v.inventory().version()) ? Action.UPGRADE
                        : diff.converged() ? Action.NONE : Action.REPAIR;
        Inventory writeAhead = current.with(entries);
        ModuleStatus status = status(v, ready(v, r) ? ModuleState.Ready : ModuleState.Processing, r, provenance(r));
        return new LifecyclePlan(v.key(), action, writeAhead.sameAs(current) ? null : writeAhead, diff.apply(),
                diff.prune(), after.sameAs(v.inventory()) ? null : after, false, status,
                KymaStatusUpdate.of(v.kyma(), v.key().module(), status), diff.drifted(),
                LifecycleReplies.of(v, action, r, diff.apply().size(), diff.prune().size(), diff.drifted()));
    }

    /**
     * The objects of the declared release that exist and belong to someone else: the conflicts that refuse it
     * (none when the module is not declared, not managed, or its release not found).
     */
    public static List<ObjectRef> conflicts(LifecycleViews v) {
        if (v.declared() == null || !v.declared().managed() || !(v.resolution() instanceof Resolution.Found f)) {
            return List.of();
        }
        return ReleaseChecks.taken(desired(v, f.release()), v);
    }

    private static List<ObjectNode> desired(LifecycleViews v, Release r) {
        List<ObjectNode> desired = new ArrayList<>();
        r.manifest().objects().forEach(o -> desired.add(ModuleObjects.labelled(o, v.key().module())));
        if (r.manifest().defaultCr() != null && v.declared().createAndDeleteCr()) {
            desired.add(ModuleObjects.labelled(r.manifest().defaultCr(), v.key().module()));
        }
        return desired;
    }

    /** A Namespace the module created (absent before, or recorded as created); one that existed stays shared. */
    private static boolean created(LifecycleViews v, ObjectRef ref, LiveObject live) {
        Optional<Inventory.Entry> known = v.inventory() == null ? Optional.empty() : v.inventory().entry(ref);
        return known.map(Inventory.Entry::created).orElse(live == null || v.key().module().equals(live.owner()));
    }

    /** Ready: the template's manager object is available, or every object is applied when it names none. */
    private static boolean ready(LifecycleViews v, Release r) {
        ObjectRef manager = r.manager();
        if (manager == null) {
            return true;
        }
        LiveObject live = v.live(manager);
        return live != null && Availability.available(live.object());
    }

    private static String provenance(Release r) {
        return switch (r.manifest().provenance()) {
            case SIGNED -> "signed manifest " + r.manifest().digest();
            case UNSIGNED -> "unsigned manifest " + r.manifest().digest() + " (signatures are not required)";
            case LINK -> "manifest from a link " + r.manifest().source() + ": unsigned, no signature can cover it";
        };
    }

    /** What a diff may prune of the inventory: a Namespace only when the module created it. */
    private static List<ObjectRef> prunable(Inventory inventory) {
        return inventory.objects().stream().filter(e -> !"Namespace".equals(e.ref().kind()) || e.created())
                .map(Inventory.Entry::ref).toList();
    }

    /**
     * The target refused: reported as such, while the installed release (the one the inventory names, read again)
     * is what the Kyma runs, so its objects are kept as it declares: drift taken back, objects deleted by hand
     * created again. Nothing is pruned and the inventory stays; when that release cannot be read, or is not wholly
     * the module's to write (outside the namespaces, taken, or objects the inventory does not list), only the refusal.
     */
    private static LifecyclePlan refusedKeeping(LifecycleViews v, String reason, String message) {
        LifecyclePlan refused = refused(v, reason, message);
        Inventory inventory = v.inventory();
        if (!(v.installed() instanceof Resolution.Found f) || inventory == null
                || !f.release().version().equals(inventory.version())) {
            return refused;
        }
        Release kept = f.release();
        List<ObjectNode> desired = desired(v, kept);
        if (ReleaseChecks.scope(desired, v.namespaces(), v.key().module()).or(() -> ReleaseChecks.conflicts(desired, v))
                .isPresent() || desired.stream().anyMatch(o -> inventory.entry(ManifestObjects.ref(o)).isEmpty())) {
            return refused;
        }
        ManifestDiff diff = ManifestPlanner.diff(desired, v::live, v.key().module(), prunable(inventory));
        if (diff.apply().isEmpty()) {
            return refused;
        }
        String keeping = "; meanwhile the installed release " + kept.version() + " is kept as it declares: "
                + diff.apply().size() + " object" + (diff.apply().size() == 1 ? "" : "s") + " applied again"
                + (diff.drifted().isEmpty() ? "" : " (drifted: " + diff.drifted() + ")");
        return new LifecyclePlan(v.key(), Action.REFUSED, null, diff.apply(), List.of(), null, false, refused.status(),
                refused.kymaStatus(), diff.drifted(), LifecycleReplies.rejected(v, reason, message + keeping));
    }

    /**
     * Unmanaged, at the version and template it was left at: the inventory's, and once the inventory is forgotten
     * the ones the Kyma's Unmanaged entry already names, so the entry written when it stopped is the one kept.
     */
    private static ModuleStatus unmanaged(LifecycleViews v) {
        ModuleStatus status = status(v, ModuleState.Unmanaged, null,
                "managed: false: Rekon leaves the module's objects as they are and no longer manages them");
        ModuleStatus left = v.inventory() != null || v.kyma() == null ? null : v.kyma().statusOf(v.key().module());
        if (left == null || left.state() != ModuleState.Unmanaged) {
            return status;
        }
        return new ModuleStatus(status.name(), status.channel(), left.version(), status.state(), status.message(),
                left.templateNamespace(), left.templateName());
    }

    static LifecyclePlan refused(LifecycleViews v, String reason, String message) {
        return LifecyclePlan.only(v, Action.REFUSED, status(v, ModuleState.Error, null, reason + ": " + message),
                LifecycleReplies.rejected(v, reason, message));
    }

    static ModuleStatus status(LifecycleViews v, ModuleState state, Release r, String message) {
        String channel = r != null ? r.channel() : v.declared() != null ? v.declared().channel() : null;
        String version = r != null ? r.version() : v.inventory() == null ? null : v.inventory().version();
        String template = r != null ? r.template() : v.inventory() == null ? null : v.inventory().template();
        int slash = template == null ? -1 : template.indexOf('/');
        return new ModuleStatus(v.key().module(), channel, version, state, message,
                slash < 0 ? null : template.substring(0, slash), slash < 0 ? template : template.substring(slash + 1));
    }
}
