package dev.rekon.modules.lifecycle.plan;

import java.util.ArrayList;
import java.util.List;

import dev.rekon.core.ObjectRef;
import dev.rekon.manifests.LiveObject;
import dev.rekon.manifests.plan.ManifestChecks;
import dev.rekon.manifests.plan.ManifestPlanner;
import dev.rekon.manifests.inventory.Inventory;
import dev.rekon.modules.lifecycle.intent.ModuleState;
import dev.rekon.modules.lifecycle.intent.ModuleStatus;
import dev.rekon.modules.lifecycle.plan.LifecyclePlan.Action;

/**
 * Uninstalls a module the Kyma no longer lists, in order: its default custom resource first; then, while other
 * custom resources of its CRDs exist, it waits ({@code Deleting}, naming them: Kyma's blocking deletion); then
 * the rest in reverse stage order, CRDs last, a Namespace only if the module created it. What is already gone is
 * skipped, so a re-sent event or the resync continues a deletion where it stopped.
 */
final class UninstallPlanner {

    private UninstallPlanner() {
    }

    static LifecyclePlan plan(LifecycleViews v) {
        Inventory inv = v.inventory();
        if (inv == null) {
            return LifecyclePlan.only(v, Action.NONE, null, LifecycleReplies.unchanged(v, "ModuleNotInstalled",
                    "module " + v.key().module() + " is not listed by Kyma " + v.key().namespace() + "/"
                            + v.key().kyma() + " and not installed; nothing to do"));
        }
        List<LiveObject> defaultCr = inv.objects().stream().filter(Inventory.Entry::defaultCr).map(e -> v.live(e.ref()))
                .filter(java.util.Objects::nonNull).toList();
        if (!v.blocking().isEmpty()) {
            String message = "module " + v.key().module() + " waits to be uninstalled until these resources of its CRDs"
                    + " are deleted: " + ManifestChecks.names(v.blocking());
            ModuleStatus deleting = LifecyclePlanner.status(v, ModuleState.Deleting, null, message);
            return new LifecyclePlan(v.key(), Action.DELETING, null, List.of(), defaultCr, null, false, deleting,
                    KymaStatusUpdate.of(v.kyma(), v.key().module(), deleting), List.of(), defaultCr.isEmpty()
                            ? LifecycleReplies.unchanged(v, "ModuleDeleting", message)
                            : LifecycleReplies.applied(v, "ModuleDeleting", message));
        }
        List<LiveObject> rest = ManifestPlanner.deleteOrder(inv.objects().stream().filter(e -> !e.defaultCr())
                .filter(e -> !"Namespace".equals(e.ref().kind()) || e.created()).map(e -> v.live(e.ref()))
                .filter(java.util.Objects::nonNull).toList(), LiveObject::ref);
        List<LiveObject> delete = new ArrayList<>(defaultCr);
        delete.addAll(rest);
        String message = "uninstalled module " + v.key().module() + " " + inv.version() + " (" + delete.size()
                + " object(s) deleted)";
        return new LifecyclePlan(v.key(), Action.UNINSTALL, null, List.of(), delete, null, true, null,
                KymaStatusUpdate.of(v.kyma(), v.key().module(), null), List.of(),
                LifecycleReplies.applied(v, "ModuleUninstalled", message));
    }
}
