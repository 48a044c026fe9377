package dev.rekon.modules.status;

import java.util.Comparator;
import java.util.List;

import dev.rekon.modules.plan.ModuleDeployment;
import dev.rekon.modules.plan.ModuleHolds;
import dev.rekon.modules.plan.ModulePlan;
import dev.rekon.modules.plan.ModuleUpdatePlanner;
import dev.rekon.modules.status.ModuleSection.ModuleRow;

/**
 * Renders the plan the one loop makes, in report mode, for the Deployments of one module on one channel as its
 * row: refused ({@code HeldBack}, with the policy's reason), would apply ({@code Pending}) or nothing to do
 * ({@code UpToDate}); {@code Unknown} when the channel offers no release a ModuleTemplate describes (no plan).
 */
public final class ModuleRows {

    /** Problem rows first. */
    public static final Comparator<ModuleRow> ORDER = Comparator.comparing((ModuleRow r) -> !r.problem());

    private ModuleRows() {
    }

    /** @param offered the version the channel offers (null: none) */
    public static ModuleRow row(List<ModuleDeployment> ds, String offered, String state, String reason,
            String message) {
        ModuleDeployment first = ds.get(0);
        return new ModuleRow(first.module(), first.channel(), ModuleUpdatePlanner.runningVersions(ds),
                ds.stream().allMatch(ModuleDeployment::enabled), offered, state, "HeldBack".equals(state), reason,
                message, ds.stream().map(ModuleRows::name).toList(), ds.stream().filter(ModuleDeployment::suspended)
                        .map(ModuleRows::name).toList(), ds.stream().filter(d -> !d.manualChanges().isEmpty())
                        .map(d -> ModuleHolds.manualChangeMessage(d, d.manualChanges())).toList());
    }

    private static String name(ModuleDeployment d) {
        return d.ref().namespace() + "/" + d.ref().name();
    }

    /** The row of the plan the loop made for the offered release. */
    public static ModuleRow of(List<ModuleDeployment> ds, String offered, ModulePlan plan) {
        if (plan instanceof ModulePlan.Rejected r) {
            return row(ds, offered, "HeldBack", r.reason(), r.message());
        }
        if (plan instanceof ModulePlan.Apply a) {
            return row(ds, offered, "Pending", "ReleaseNotApplied", "release " + offered + " would apply ("
                    + a.reason() + "); the next event of its ModuleReleaseMeta applies it");
        }
        return row(ds, offered, "UpToDate", plan.reason(), plan.message());
    }

    /** No plan: the channel offers nothing, or no ModuleTemplate describes what it offers. */
    public static ModuleRow noRelease(List<ModuleDeployment> ds, String offered) {
        ModuleDeployment first = ds.get(0);
        if (offered == null) {
            return row(ds, null, "Unknown", "NoReleaseOnChannel", "no ModuleReleaseMeta offers module "
                    + first.module() + " on channel '" + first.channel() + "'");
        }
        return row(ds, offered, offered.equals(ModuleUpdatePlanner.runningVersions(ds)) ? "UpToDate" : "Unknown",
                "NoModuleTemplate", "no ModuleTemplate describes " + first.module() + " " + offered
                        + ", the newest version on '" + first.channel() + "'");
    }
}
