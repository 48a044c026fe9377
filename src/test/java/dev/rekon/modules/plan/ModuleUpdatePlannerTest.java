package dev.rekon.modules.plan;

import static dev.rekon.modules.ModuleFixtures.REGISTRY;
import static dev.rekon.modules.ModuleFixtures.deployment;
import static dev.rekon.modules.ModuleFixtures.release;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import dev.rekon.modules.plan.ModulePlan.Apply;
import dev.rekon.modules.plan.ModulePlan.DeploymentPatch;
import dev.rekon.modules.plan.ModulePlan.NoChange;
import dev.rekon.modules.plan.ModulePlan.Rejected;
import dev.rekon.modules.plan.ModuleUpdatePlanner.Policy;
import dev.rekon.modules.release.MaintenanceWindow;
import dev.rekon.modules.release.ModuleRelease;
import dev.rekon.modules.release.SignatureCheck;

class ModuleUpdatePlannerTest {

    static final Policy LENIENT = new Policy(false, Optional.empty());
    static final Policy SIGNED = new Policy(true, Optional.empty());
    static final Policy WINDOW = new Policy(false, Optional.of(MaintenanceWindow.parse("Sat 02:00-04:00")));
    /** A Wednesday noon, outside the Saturday window. */
    static final Instant WEDNESDAY = Instant.parse("2026-03-04T12:00:00Z");
    static final Instant SATURDAY_3AM = Instant.parse("2026-03-07T03:00:00Z");
    static final String D = "Deployment kpack/kpack-controller";

    static Stream<Arguments> refusals() {
        return Stream.of(
                Arguments.of("not installed", release("0.4.3", "regular"), List.of(), LENIENT, WEDNESDAY,
                        NoChange.class, "ModuleNotInstalled", "no Deployment is labelled rekon.dev/module=kpack in the"
                                + " namespaces Rekon may act in; label the module's Deployments (and set"
                                + " app.kubernetes.io/version) to let Rekon manage them"),
                Arguments.of("same release twice", release("0.4.3", "regular"), List.of(deployment("0.4.3", "regular")),
                        LENIENT, WEDNESDAY, NoChange.class, "AlreadyAtVersion",
                        "module kpack already runs 0.4.3 with the release's images on channel 'regular'; nothing to do"),
                Arguments.of("same release twice, outside the window", release("0.4.3", "regular"),
                        List.of(deployment("0.4.3", "regular")), WINDOW, WEDNESDAY, NoChange.class, "AlreadyAtVersion",
                        "module kpack already runs 0.4.3 with the release's images on channel 'regular'; nothing to do"),
                Arguments.of("downgrade", release("0.4.1", "regular"), List.of(deployment("0.4.3", "regular")), LENIENT,
                        WEDNESDAY, Rejected.class, "DowngradeRefused", D + " runs 0.4.3 and release 0.4.1 is older;"
                                + " Rekon only moves modules forward. To downgrade on purpose, mark the release as an"
                                + " intended downgrade (annotation rekon.dev/intended-downgrade: \"true\" on the"
                                + " ModuleTemplate, or intendedDowngrade: true in the manual event)"),
                Arguments.of("release before pre-release", release("0.4.3-rc.1", "regular"),
                        List.of(deployment("0.4.3", "regular")), LENIENT, WEDNESDAY, Rejected.class, "DowngradeRefused",
                        D + " runs 0.4.3 and release 0.4.3-rc.1 is older; Rekon only moves modules forward. To downgrade"
                                + " on purpose, mark the release as an intended downgrade (annotation"
                                + " rekon.dev/intended-downgrade: \"true\" on the ModuleTemplate, or intendedDowngrade:"
                                + " true in the manual event)"),
                Arguments.of("two majors up", release("2.0.0", "regular"), List.of(deployment("0.4.3", "regular")),
                        LENIENT, WEDNESDAY, Rejected.class, "MajorStepTooLarge", D + " runs 0.4.3 and release 2.0.0 is"
                                + " more than one major version away; Rekon moves at most one major version per step,"
                                + " so release and apply a 1.x version first"),
                Arguments.of("intended downgrade by two majors", release("0.4.1", "regular", false, true,
                        SignatureCheck.verified("ok")), List.of(deployment("2.1.0", "regular")), LENIENT, WEDNESDAY,
                        Rejected.class, "MajorStepTooLarge", D + " runs 2.1.0 and release 0.4.1 is more than one major"
                                + " version away; Rekon moves at most one major version per step, so release and apply"
                                + " a 1.x version first"),
                Arguments.of("other channel", release("0.5.0", "fast"), List.of(deployment("0.4.1", "regular")), LENIENT,
                        WEDNESDAY, NoChange.class, "NotOnFollowedChannel", "module kpack follows channel(s) [regular];"
                                + " release 0.5.0 is on channel 'fast'; send a manual release on channel 'fast' to"
                                + " switch the module to it"),
                Arguments.of("channel switch to an older version", release("0.4.3", "regular", true, false,
                        SignatureCheck.verified("ok")), List.of(deployment("0.5.0", "fast")), LENIENT, WEDNESDAY,
                        Rejected.class, "ChannelSwitchDowngrade", "switching module kpack from channel 'fast' to"
                                + " 'regular' would take " + D + " from the 0.5.0 it runs down to 0.4.3; wait until"
                                + " 'regular' offers 0.5.0 or later, or send the release with intendedDowngrade: true"),
                Arguments.of("unsigned, signatures required", release("0.4.3", "regular", false, false,
                        SignatureCheck.missing("no signatures[]")), List.of(deployment("0.4.1", "regular")), SIGNED,
                        WEDNESDAY, Rejected.class, "SignatureMissing", "release 0.4.3 of module kpack from ModuleTemplate"
                                + " kcp-system/kpack-0.4.3 carries no signature and rekon.modules.require-signature is"
                                + " on; sign the component descriptor (or the manual event) with a key whose public key"
                                + " Rekon is configured with"),
                Arguments.of("wrongly signed, signatures optional", release("0.4.3", "regular", false, false,
                        SignatureCheck.invalid("SignatureInvalid", "signature 'kyma' verifies with none of 1 keys")),
                        List.of(deployment("0.4.1", "regular")), LENIENT, WEDNESDAY, Rejected.class, "SignatureInvalid",
                        "release 0.4.3 of module kpack from ModuleTemplate kcp-system/kpack-0.4.3 is not trusted:"
                                + " signature 'kyma' verifies with none of 1 keys; nothing was applied"),
                Arguments.of("running version unknown", release("0.4.3", "regular"),
                        List.of(deployment("latest", "regular")), LENIENT, WEDNESDAY, Rejected.class,
                        "RunningVersionUnknown", D + " has no semantic version in label app.kubernetes.io/version"
                                + " ('latest'); set it to the version that runs"),
                Arguments.of("outside the maintenance window", release("0.4.3", "regular"),
                        List.of(deployment("0.4.1", "regular")), WINDOW, WEDNESDAY, Rejected.class,
                        "OutsideMaintenanceWindow", "module kpack may change version only in the maintenance window"
                                + " Sat 02:00-04:00 UTC; send the release again after 2026-03-07T02:00:00Z (or change"
                                + " rekon.modules.maintenance-window)"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refusals")
    void refusesOrSkipsWithAReason(String name, ModuleRelease release, List<ModuleDeployment> installed,
            Policy policy, Instant now, Class<? extends ModulePlan> type, String reason, String message) {
        ModulePlan plan = ModuleUpdatePlanner.plan(release, installed, policy, now).plan();
        assertInstanceOf(type, plan);
        assertEquals(reason, plan.reason());
        assertEquals(message, plan.message());
    }

    static Stream<Arguments> applications() {
        return Stream.of(
                Arguments.of("patch upgrade", release("0.4.3", "regular"), deployment("0.4.1", "regular"), LENIENT,
                        WEDNESDAY, "Upgraded", null),
                Arguments.of("one major up", release("1.0.0", "regular"), deployment("0.4.3", "regular"), LENIENT,
                        WEDNESDAY, "Upgraded", null),
                Arguments.of("pre-release to release", release("0.4.3", "regular"), deployment("0.4.3-rc.1", "regular"),
                        LENIENT, WEDNESDAY, "Upgraded", null),
                Arguments.of("intended downgrade", release("0.4.1", "regular", false, true,
                        SignatureCheck.verified("ok")), deployment("0.4.3", "regular"), LENIENT, WEDNESDAY,
                        "Downgraded", null),
                Arguments.of("channel switch forward", release("0.5.0", "fast", true, false,
                        SignatureCheck.verified("ok")), deployment("0.4.3", "regular"), LENIENT, WEDNESDAY,
                        "Upgraded", "fast"),
                Arguments.of("unsigned, signatures optional", release("0.4.3", "regular", false, false,
                        SignatureCheck.missing("none")), deployment("0.4.1", "regular"), LENIENT, WEDNESDAY,
                        "Upgraded", null),
                Arguments.of("signed, signatures required", release("0.4.3", "regular"), deployment("0.4.1", "regular"),
                        SIGNED, WEDNESDAY, "Upgraded", null),
                Arguments.of("inside the maintenance window", release("0.4.3", "regular"),
                        deployment("0.4.1", "regular"), WINDOW, SATURDAY_3AM, "Upgraded", null));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("applications")
    void patchesOnlyMatchingContainersAndTheVersionLabel(String name, ModuleRelease release, ModuleDeployment d,
            Policy policy, Instant now, String reason, String channel) {
        ModuleUpdatePlanner.Decision decision = ModuleUpdatePlanner.plan(release, List.of(d), policy, now);
        Apply apply = assertInstanceOf(Apply.class, decision.plan());
        assertEquals(reason, apply.reason());
        String v = release.version().toString();
        assertEquals(List.of(new DeploymentPatch(d.ref(), "7", Map.of("controller", REGISTRY + "controller:" + v), v,
                channel, null, null, Map.of("controller", REGISTRY + "controller:" + v), null)), apply.patches());
        assertEquals(d.version(), decision.fromVersion());
        assertEquals(v, decision.toVersion());
    }

    @Test
    void saysWhatItAppliedAndWhere() {
        ModulePlan plan = ModuleUpdatePlanner.plan(release("0.5.0", "fast", true, false, SignatureCheck.verified("ok")),
                List.of(deployment("0.4.3", "regular")), LENIENT, WEDNESDAY).plan();
        assertEquals("module kpack set to 0.5.0 and switched to channel 'fast' in " + D
                + " (from ModuleTemplate kcp-system/kpack-0.5.0)", plan.message());
    }

    @Test
    void sameVersionWithNewImagesUpdatesOnlyTheImages() {
        ModuleDeployment d = new ModuleDeployment(deployment("0.4.3", "regular").ref(), "9", "kpack", "0.4.3",
                "regular", Map.of("controller", "old/controller:0.4.3"), 1, null);
        Apply apply = assertInstanceOf(Apply.class,
                ModuleUpdatePlanner.plan(release("0.4.3", "regular"), List.of(d), LENIENT, WEDNESDAY).plan());
        assertEquals("ImagesUpdated", apply.reason());
        assertEquals(List.of(new DeploymentPatch(d.ref(), "9", Map.of("controller", REGISTRY + "controller:0.4.3"),
                null, null, null, null, Map.of("controller", REGISTRY + "controller:0.4.3"), null)), apply.patches());
    }

    @Test
    void refusesTheWholeReleaseWhenOneDeploymentWouldGoBack() {
        ModuleDeployment behind = deployment("a", "0.4.1", "regular", 1, null);
        ModuleDeployment ahead = deployment("b", "0.5.0", "regular", 1, null);
        ModuleUpdatePlanner.Decision decision = ModuleUpdatePlanner.plan(release("0.4.3", "regular"),
                List.of(behind, ahead), LENIENT, WEDNESDAY);
        assertEquals("DowngradeRefused", decision.plan().reason());
        assertEquals("0.4.1,0.5.0", decision.fromVersion());
    }

    @Test
    void refusesReleasesThatNameNoContainerOfTheModule() {
        ModuleDeployment d = new ModuleDeployment(deployment("0.4.1", "regular").ref(), "1", "kpack", "0.4.1",
                "regular", Map.of("manager", "x:1"), 1, null);
        ModulePlan plan = ModuleUpdatePlanner.plan(release("0.4.3", "regular"), List.of(d), LENIENT, WEDNESDAY).plan();
        assertEquals(new Rejected("NoMatchingContainers", "release 0.4.3 names images for containers [controller,"
                + " webhook] but " + D + " has containers [manager]; name the release's resources after the"
                + " containers"), plan);
    }
}
