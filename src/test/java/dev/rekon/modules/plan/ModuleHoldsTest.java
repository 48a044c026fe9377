package dev.rekon.modules.plan;

import static dev.rekon.modules.ModuleFixtures.REGISTRY;
import static dev.rekon.modules.ModuleFixtures.release;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import dev.rekon.core.ObjectRef;
import dev.rekon.modules.plan.ModuleDeployment.ManualChange;
import dev.rekon.modules.plan.ModulePlan.Apply;
import dev.rekon.modules.plan.ModulePlan.DeploymentPatch;
import dev.rekon.modules.plan.ModuleUpdatePlanner.Decision;
import dev.rekon.modules.plan.ModuleUpdatePlanner.Policy;
import dev.rekon.modules.release.ModuleRelease;

/** Suspend and manual changes: which releases leave a module Deployment alone, and which roll forward. */
class ModuleHoldsTest {

    static final Policy LENIENT = new Policy(false, Optional.empty());
    static final Instant NOW = Instant.parse("2026-03-04T12:00:00Z");
    static final String APPLIED = REGISTRY + "controller:0.4.3";
    static final String BY_HAND = REGISTRY + "controller:0.4.2-hotfix";

    /** A Deployment Rekon set to 0.4.3, whose controller now runs {@code running}. */
    static ModuleDeployment deployment(String name, String running, boolean suspended, String reported) {
        return new ModuleDeployment(new ObjectRef("apps/v1", "Deployment", "kpack", name), "7", "kpack", "0.4.3",
                "regular", Map.of("controller", running, "sidecar", "proxy:1"), 2, null,
                Map.of("controller", APPLIED), suspended, reported);
    }

    static Stream<Arguments> leftAlone() {
        return Stream.of(
                Arguments.of("suspended, newer release", release("0.4.4", "regular"),
                        deployment("a", APPLIED, true, null), "Suspended", "Deployment kpack/a is suspended (annotation"
                                + " rekon.dev/suspend: \"true\"); release 0.4.4 of module kpack waits until the"
                                + " annotation is removed"),
                Arguments.of("changed by hand, same release again", release("0.4.3", "regular"),
                        deployment("a", BY_HAND, false, null), "ManualChange", "Deployment kpack/a was changed by"
                                + " hand: container controller runs " + BY_HAND + " but Rekon applied " + APPLIED
                                + " (release 0.4.3); Rekon leaves it as it is until a release newer than 0.4.3"),
                Arguments.of("changed by hand, older release", release("0.4.1", "regular"),
                        deployment("a", BY_HAND, false, null), "ManualChange", "Deployment kpack/a was changed by"
                                + " hand: container controller runs " + BY_HAND + " but Rekon applied " + APPLIED
                                + " (release 0.4.3); Rekon leaves it as it is until a release newer than 0.4.3"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("leftAlone")
    void plansNoWrite(String name, ModuleRelease release, ModuleDeployment d, String reason, String message) {
        Decision decision = ModuleUpdatePlanner.plan(release, List.of(d), LENIENT, NOW);
        ModulePlan.NoChange plan = assertInstanceOf(ModulePlan.NoChange.class, decision.plan());
        assertEquals(reason, plan.reason());
        assertEquals(message, plan.message());
        assertEquals(1, decision.holds().size());
    }

    @Test
    void aManualChangeIsReportedOnceThenRecordedAsReported() {
        ModuleHolds.Hold fresh = ModuleUpdatePlanner.plan(release("0.4.3", "regular"),
                List.of(deployment("a", BY_HAND, false, null)), LENIENT, NOW).holds().get(0);
        assertEquals(List.of(new ManualChange("controller", BY_HAND, APPLIED)), fresh.changes());
        assertTrue(fresh.needsReport());
        String key = ModuleDeployment.changeKey(fresh.changes());
        assertEquals("controller=" + BY_HAND, key);

        ModuleHolds.Hold again = ModuleUpdatePlanner.plan(release("0.4.3", "regular"),
                List.of(deployment("a", BY_HAND, false, key)), LENIENT, NOW).holds().get(0);
        assertFalse(again.needsReport());
        ModuleHolds.Hold other = ModuleUpdatePlanner.plan(release("0.4.3", "regular"),
                List.of(deployment("a", REGISTRY + "controller:other", false, key)), LENIENT, NOW).holds().get(0);
        assertTrue(other.needsReport());
    }

    @Test
    void aNewerReleaseRollsForwardOverAManualChangeAndClearsTheReport() {
        ModuleDeployment d = deployment("a", BY_HAND, false, "controller=" + BY_HAND);
        Decision decision = ModuleUpdatePlanner.plan(release("0.4.4", "regular"), List.of(d), LENIENT, NOW);
        Apply apply = assertInstanceOf(Apply.class, decision.plan());
        String next = REGISTRY + "controller:0.4.4";
        assertEquals(List.of(new DeploymentPatch(d.ref(), "7", Map.of("controller", next), "0.4.4", null, null, null,
                Map.of("controller", next), DeploymentPatch.REMOVE)), apply.patches());
        assertEquals(List.of(), decision.holds());
    }

    @Test
    void onlyTheSuspendedDeploymentWaits() {
        ModuleDeployment held = deployment("a", APPLIED, true, null);
        ModuleDeployment free = deployment("b", APPLIED, false, null);
        Decision decision = ModuleUpdatePlanner.plan(release("0.4.4", "regular"), List.of(held, free), LENIENT, NOW);
        Apply apply = assertInstanceOf(Apply.class, decision.plan());
        assertEquals(List.of(free.ref()), apply.patches().stream().map(DeploymentPatch::ref).toList());
        assertEquals(List.of(held), decision.holds().stream().map(ModuleHolds.Hold::deployment).toList());
    }

    @Test
    void aSuspendedDeploymentMayCarryAnyVersionLabel() {
        ModuleDeployment held = new ModuleDeployment(new ObjectRef("apps/v1", "Deployment", "kpack", "a"), "7", "kpack",
                "latest", "regular", Map.of("controller", APPLIED), 1, null, Map.of(), true, null);
        Decision decision = ModuleUpdatePlanner.plan(release("0.4.4", "regular"),
                List.of(held, deployment("b", APPLIED, false, null)), LENIENT, NOW);
        assertEquals("Upgraded", decision.plan().reason());
    }

    @Test
    void runningWhatRekonAppliedIsNoManualChange() {
        Decision decision = ModuleUpdatePlanner.plan(release("0.4.3", "regular"),
                List.of(deployment("a", APPLIED, false, null)), LENIENT, NOW);
        assertEquals("AlreadyAtVersion", decision.plan().reason());
        assertEquals(List.of(), decision.holds());
    }

    @Test
    void withoutARecordDifferentImagesAreUpdatedAsBefore() {
        ModuleDeployment unrecorded = new ModuleDeployment(new ObjectRef("apps/v1", "Deployment", "kpack", "a"), "7",
                "kpack", "0.4.3", "regular", Map.of("controller", BY_HAND), 1, null);
        assertEquals("ImagesUpdated",
                ModuleUpdatePlanner.plan(release("0.4.3", "regular"), List.of(unrecorded), LENIENT, NOW).plan().reason());
    }

    @Test
    void enableAndDisableLeaveSuspendedDeploymentsAlone() {
        ModuleDeployment held = deployment("a", APPLIED, true, null);
        assertEquals("Suspended", ModuleSwitchPlanner.disable("kpack", List.of(held)).reason());
        ModuleDeployment disabledAndHeld = new ModuleDeployment(held.ref(), "7", "kpack", "0.4.3", "regular",
                held.containerImages(), 0, 2, held.appliedImages(), true, null);
        assertEquals("Suspended", ModuleSwitchPlanner.enable("kpack", List.of(disabledAndHeld)).reason());
    }
}
