package dev.rekon.modules.plan;

import java.util.List;
import java.util.stream.Collectors;

import dev.rekon.modules.plan.ModulePlan.Apply;
import dev.rekon.modules.plan.ModulePlan.DeploymentPatch;
import dev.rekon.modules.plan.ModulePlan.NoChange;

/**
 * Decides enable and disable: disabling scales each of the module's Deployments to 0 and remembers its
 * replicas in an annotation; enabling restores that count and removes the annotation. Repeating either
 * plans no write. Suspended Deployments are left as they are.
 */
public final class ModuleSwitchPlanner {

    private ModuleSwitchPlanner() {
    }

    public static ModulePlan disable(String module, List<ModuleDeployment> installed) {
        if (installed.isEmpty()) {
            return ModuleUpdatePlanner.notInstalled(module);
        }
        List<DeploymentPatch> patches = installed.stream().filter(d -> !d.suspended() && d.enabled())
                .map(d -> new DeploymentPatch(d.ref(), d.resourceVersion(), null, null, null, 0,
                        Integer.toString(d.replicas())))
                .toList();
        if (patches.isEmpty() && installed.stream().anyMatch(ModuleDeployment::suspended)) {
            return suspended(module);
        }
        if (patches.isEmpty()) {
            return new NoChange("AlreadyDisabled", "module " + module + " is already disabled (scaled to 0, replicas"
                    + " kept in annotation " + ModuleDeployment.REPLICAS_ANNOTATION + "); enable it to restore them");
        }
        return new Apply(patches, "Disabled", "module " + module + " scaled to 0 in " + names(patches)
                + "; the previous replicas are kept in annotation " + ModuleDeployment.REPLICAS_ANNOTATION);
    }

    public static ModulePlan enable(String module, List<ModuleDeployment> installed) {
        if (installed.isEmpty()) {
            return ModuleUpdatePlanner.notInstalled(module);
        }
        List<DeploymentPatch> patches = installed.stream().filter(d -> !d.suspended() && !d.enabled())
                .map(d -> new DeploymentPatch(d.ref(), d.resourceVersion(), null, null, null,
                        d.replicasBeforeDisable(), DeploymentPatch.REMOVE))
                .toList();
        if (patches.isEmpty() && installed.stream().anyMatch(ModuleDeployment::suspended)) {
            return suspended(module);
        }
        if (patches.isEmpty()) {
            return new NoChange("AlreadyEnabled", "module " + module + " is enabled: none of its Deployments carries"
                    + " annotation " + ModuleDeployment.REPLICAS_ANNOTATION + "; scale them directly if needed");
        }
        return new Apply(patches, "Enabled", "module " + module + " restored to its previous replicas in "
                + names(patches));
    }

    private static NoChange suspended(String module) {
        return new NoChange(ModuleHolds.SUSPENDED, "module " + module + " has suspended Deployments (annotation "
                + ModuleDeployment.SUSPEND_ANNOTATION + ": \"true\"), and no other to change; remove the annotation first");
    }

    private static String names(List<DeploymentPatch> patches) {
        return patches.stream().map(p -> p.ref().toString()).collect(Collectors.joining(", "));
    }
}
