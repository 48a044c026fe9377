package dev.rekon.modules.plan;

import static dev.rekon.modules.ModuleFixtures.deployment;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.rekon.modules.plan.ModulePlan.Apply;
import dev.rekon.modules.plan.ModulePlan.DeploymentPatch;
import dev.rekon.modules.plan.ModulePlan.NoChange;

class ModuleSwitchPlannerTest {

    static final ModuleDeployment RUNNING = deployment("kpack-controller", "0.4.3", "regular", 3, null);
    static final ModuleDeployment DISABLED = deployment("kpack-controller", "0.4.3", "regular", 0, 3);

    @Test
    void disableScalesToZeroAndRemembersTheReplicas() {
        assertEquals(new Apply(List.of(new DeploymentPatch(RUNNING.ref(), "7", null, null, null, 0, "3")), "Disabled",
                "module kpack scaled to 0 in Deployment kpack/kpack-controller; the previous replicas are kept in"
                        + " annotation rekon.dev/replicas-before-disable"),
                ModuleSwitchPlanner.disable("kpack", List.of(RUNNING)));
    }

    @Test
    void disableTwiceWritesNothing() {
        assertEquals(new NoChange("AlreadyDisabled", "module kpack is already disabled (scaled to 0, replicas kept in"
                + " annotation rekon.dev/replicas-before-disable); enable it to restore them"),
                ModuleSwitchPlanner.disable("kpack", List.of(DISABLED)));
    }

    @Test
    void enableRestoresTheReplicasAndDropsTheAnnotation() {
        assertEquals(new Apply(List.of(new DeploymentPatch(DISABLED.ref(), "7", null, null, null, 3,
                DeploymentPatch.REMOVE)), "Enabled", "module kpack restored to its previous replicas in Deployment"
                        + " kpack/kpack-controller"),
                ModuleSwitchPlanner.enable("kpack", List.of(DISABLED)));
    }

    @Test
    void enableTwiceWritesNothing() {
        assertEquals(new NoChange("AlreadyEnabled", "module kpack is enabled: none of its Deployments carries"
                + " annotation rekon.dev/replicas-before-disable; scale them directly if needed"),
                ModuleSwitchPlanner.enable("kpack", List.of(RUNNING)));
    }

    @Test
    void nothingInstalledIsSaid() {
        assertEquals("ModuleNotInstalled", ModuleSwitchPlanner.disable("kpack", List.of()).reason());
        assertEquals("ModuleNotInstalled", ModuleSwitchPlanner.enable("kpack", List.of()).reason());
    }
}
