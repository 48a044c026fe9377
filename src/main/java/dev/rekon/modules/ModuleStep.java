package dev.rekon.modules;

import java.util.List;

import dev.rekon.core.Reply;
import dev.rekon.modules.plan.ModuleDeployment;
import dev.rekon.modules.plan.ModuleHolds;
import dev.rekon.modules.plan.ModulePlan;
import dev.rekon.pipeline.Reconciler;

/**
 * One module's plan as the loop carries it: the {@link ModulePlan} (the patches), the Deployments it was planned
 * from, the ones left alone that still need their manual change reported, and the reply that says so.
 */
public record ModuleStep(ModulePlan plan, List<ModuleDeployment> deployments, List<ModuleHolds.Hold> holds,
        Reply reply) implements Reconciler.Plan {

    public ModuleStep {
        deployments = List.copyOf(deployments);
        holds = List.copyOf(holds);
    }

    /** Whether applying the step writes anything: a patch, or a manual change not reported yet. */
    public boolean writes() {
        return plan instanceof ModulePlan.Apply || holds.stream().anyMatch(ModuleHolds.Hold::needsReport);
    }
}
