package dev.rekon.modules.lifecycle.status;

import java.util.List;
import java.util.Optional;
import java.util.Set;

import dev.rekon.core.ObjectRef;
import dev.rekon.manifests.inventory.Inventory;
import dev.rekon.modules.lifecycle.plan.LifecyclePlan;
import dev.rekon.modules.lifecycle.plan.LifecyclePlan.Action;
import dev.rekon.modules.lifecycle.plan.LifecyclePlanner;
import dev.rekon.modules.lifecycle.plan.LifecycleViews;
import dev.rekon.modules.lifecycle.intent.ModuleState;

/**
 * Turns a lifecycle plan into its status row, deciding nothing of its own: state, version and message are the
 * plan's status entry, the pending work its applies and deletes, the conflicts the planner's own check. A module
 * the Kyma no longer lists has no row once its uninstall is carried out (or when it was never installed).
 */
public final class LifecycleRows {

    private static final Set<String> PROBLEMS = Set.of(ModuleState.Error.name(), ModuleState.Warning.name(),
            ModuleState.Deleting.name());

    private LifecycleRows() {
    }

    /** The row of a plan as made, before (or without) carrying it out; empty when nothing is or would be there. */
    public static Optional<LifecycleRow> planned(LifecycleViews v, LifecyclePlan p) {
        Inventory inv = v.inventory();
        if (inv == null && v.declared() == null) {
            return Optional.empty();
        }
        String version = inv == null ? null : inv.version();
        String state = p.status() != null ? p.status().state().name() : ModuleState.Deleting.name();
        // A plan that was not refused passed the planner's conflict check: only a refused one can have any.
        List<ObjectRef> conflicts = p.action() == Action.REFUSED ? LifecyclePlanner.conflicts(v) : List.of();
        return Optional.of(new LifecycleRow(v.key().namespace(), v.key().kyma(), v.key().module(), channel(p, inv),
                version, p.status() != null ? p.status().version() : version, state,
                PROBLEMS.contains(state) || !conflicts.isEmpty(), p.action().name(), p.reply().reason(), message(p),
                inv == null ? 0 : inv.objects().size(), p.apply().size(), p.deleted(), conflicts, p.writes(), v.now()));
    }

    private static String channel(LifecyclePlan p, Inventory inv) {
        return p.status() != null && p.status().channel() != null ? p.status().channel()
                : inv == null ? null : inv.channel();
    }

    private static String message(LifecyclePlan p) {
        return p.status() != null && p.status().message() != null ? p.status().message() : p.reply().message();
    }

    /** The row once the plan was carried out: nothing pending; empty once the module is uninstalled. */
    public static Optional<LifecycleRow> carriedOut(LifecycleRow planned, LifecyclePlan p) {
        if (p.action() == Action.UNINSTALL) {
            return Optional.empty();
        }
        int objects = p.forget() ? 0 : p.inventory() != null ? p.inventory().objects().size() : planned.objects();
        String version = p.inventory() != null ? p.inventory().version() : planned.version();
        return Optional.of(new LifecycleRow(planned.namespace(), planned.kyma(), planned.module(), planned.channel(),
                version, planned.release(), planned.state(), planned.problem(), planned.action(), planned.reason(),
                planned.message(), objects, 0, List.of(), planned.conflicts(), false, planned.planned()));
    }
}
