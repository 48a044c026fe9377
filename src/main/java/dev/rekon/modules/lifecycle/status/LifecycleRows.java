package dev.rekon.modules.lifecycle.status;

import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import dev.rekon.core.ObjectRef;
import dev.rekon.manifests.inventory.Inventory;
import dev.rekon.modules.lifecycle.plan.LifecyclePlan;
import dev.rekon.modules.lifecycle.plan.LifecyclePlan.Action;
import dev.rekon.modules.lifecycle.plan.LifecyclePlanner;
import dev.rekon.modules.lifecycle.plan.LifecycleViews;
import dev.rekon.modules.lifecycle.plan.Resolution;
import dev.rekon.modules.lifecycle.intent.ModuleState;

/**
 * Turns a lifecycle plan into its status row, deciding nothing of its own: state, version and message are the
 * plan's status entry, the pending work its applies and deletes, the conflicts the planner's own check. A module
 * the Kyma no longer lists has no row once its uninstall is carried out (or when it was never installed).
 */
public final class LifecycleRows {

    /** The state and action of a row whose release this replica has not read yet. */
    public static final String NOT_READ_STATE = "Unknown";

    private static final Set<String> PROBLEMS = Set.of(ModuleState.Error.name(), ModuleState.Warning.name(),
            ModuleState.Deleting.name());

    /** Problem rows first, then by namespace, Kyma and module. */
    public static final Comparator<LifecycleRow> ORDER = Comparator.comparing((LifecycleRow r) -> !r.problem())
            .thenComparing(LifecycleRow::namespace).thenComparing(LifecycleRow::kyma)
            .thenComparing(LifecycleRow::module);

    private LifecycleRows() {
    }

    /** The row of a plan as made, before (or without) carrying it out; empty when nothing is or would be there. */
    public static Optional<LifecycleRow> planned(LifecycleViews v, LifecyclePlan p) {
        Inventory inv = v.inventory();
        if (inv == null && v.declared() == null) {
            return Optional.empty();
        }
        // An unmanaged module whose inventory is dropped is at the version its status entry says it was left at.
        String version = inv != null ? inv.version()
                : p.action() == Action.UNMANAGE && p.status() != null ? p.status().version() : null;
        if (notRead(v.resolution()) || notRead(v.installed())) {
            // Not a problem of the module: this replica has yet to read what it would plan from.
            Resolution.Unavailable u = (Resolution.Unavailable) (notRead(v.resolution()) ? v.resolution() : v.installed());
            return Optional.of(new LifecycleRow(v.key().namespace(), v.key().kyma(), v.key().module(),
                    v.declared() != null ? v.declared().channel() : inv == null ? null : inv.channel(), version, null,
                    NOT_READ_STATE, false, NOT_READ_STATE, u.reason(), u.message(), inv == null ? 0 : inv.objects().size(),
                    0, List.of(), List.of(), false, v.now()));
        }
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

    private static boolean notRead(Resolution r) {
        return r instanceof Resolution.Unavailable u && Resolution.NOT_READ.equals(u.reason());
    }
}
