package dev.rekon.rollouts.plan;

import static dev.rekon.rollouts.plan.RolloutPlannerTest.APP_V1;
import static dev.rekon.rollouts.plan.RolloutPlannerTest.APP_V2;
import static dev.rekon.rollouts.plan.RolloutPlannerTest.MIGRATE_V1;
import static dev.rekon.rollouts.plan.RolloutPlannerTest.applied;
import static dev.rekon.rollouts.plan.RolloutPlannerTest.assertGolden;
import static dev.rekon.rollouts.plan.RolloutPlannerTest.image;
import static dev.rekon.rollouts.plan.RolloutPlannerTest.json;
import static dev.rekon.rollouts.plan.RolloutPlannerTest.written;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.cluster.Conditions;
import dev.rekon.rollouts.view.DeploymentView;
import dev.rekon.rollouts.view.ImageDeployView;
import dev.rekon.rollouts.view.KpackImage;

/** Table tests of the InSync condition (manual changes reported, not fought) and of spec.suspend. */
class ManualChangeAndSuspendPlannerTest {

    static final String HOTFIX = "registry.local/team/app:hotfix";
    static final String APP_V3 = "registry.local/team/app@sha256:" + "3".repeat(64);
    static final String DRIFT = "Deployment shop-web was changed by hand: container web runs " + HOTFIX + ", not "
            + APP_V1 + " (build 4 of kpack Image app) that Rekon applied; Rekon leaves it so until a newer build is reported";

    final RolloutPlanner planner = new RolloutPlanner();

    /** A live Deployment whose annotation records {@code build} of app as {@code recorded}, running {@code web}. */
    static DeploymentView live(String web, String recorded, long build) {
        ObjectNode d = json("""
                {"metadata": {"name": "shop-web", "resourceVersion": "50", "annotations": {}, "labels": {"app.kubernetes.io/managed-by": "rekon"}},
                 "spec": {"template": {"spec": {
                   "initContainers": [{"name": "migrate", "image": "%s"}],
                   "containers": [{"name": "web", "image": "%s"}, {"name": "sidecar", "image": "envoy:1.28"},
                                  {"name": "worker", "image": "%s"}]}}}}
                """.formatted(MIGRATE_V1, web, recorded));
        ((ObjectNode) d.at("/metadata/annotations")).put(DeploymentView.APPLIED_BUILDS,
                "[{\"name\":\"app\",\"image\":\"%s\",\"buildCounter\":%d,\"imageUid\":\"uid-app\"}]".formatted(recorded, build));
        return DeploymentView.fromJson(d);
    }

    static ImageDeployView idp(String status, boolean suspend) {
        ObjectNode n = RolloutPlannerTest.idpJson("rekon.dev/v1alpha1", status);
        ((ObjectNode) n.get("spec")).put("suspend", suspend);
        return ImageDeployView.fromJson(n);
    }

    /** The status after a manual change was reported once. */
    static String reported(String status) {
        return status.replace("""
                {"type": "InSync", "status": "True", "reason": "AsApplied",
                   "message": "every managed container of Deployment shop-web runs the image Rekon applied",""",
                "{\"type\": \"InSync\", \"status\": \"False\", \"reason\": \"ManualChange\", \"message\": \"" + DRIFT + "\",");
    }

    RolloutPlan plan(ImageDeployView idp, Map<String, KpackImage> images, DeploymentView live) {
        return planner.plan(new RolloutPlanner.Request(idp, new LinkedHashMap<>(images), images.keySet(),
                Optional.ofNullable(live), RolloutPlannerTest.NOW));
    }

    record Case(String name, ImageDeployView idp, Map<String, KpackImage> images, DeploymentView live,
            Class<? extends RolloutPlan> kind, String reason, String message, boolean writesStatus, String inSync) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Case> cases() {
        Map<String, KpackImage> build4 = Map.of("app", image("app", APP_V1, 4));
        Map<String, KpackImage> build5 = Map.of("app", image("app", APP_V2, 5));
        return Stream.of(
                new Case("kubectl set image: reported, not fought", idp(applied(APP_V1, 4), false), build4,
                        live(HOTFIX, APP_V1, 4), RolloutPlan.NoChange.class, "ManualChange", DRIFT, true, "False"),
                new Case("the same manual change found again: zero writes", idp(reported(applied(APP_V1, 4)), false),
                        build4, live(HOTFIX, APP_V1, 4), RolloutPlan.NoChange.class, "ManualChange", DRIFT, false, "False"),
                new Case("an older build does not undo a manual change either", idp(reported(applied(APP_V1, 4)), false),
                        Map.of("app", image("app", "registry.local/team/app:old", 3)), live(HOTFIX, APP_V1, 4),
                        RolloutPlan.NoChange.class, "OlderBuild",
                        "build 3 of kpack Image app is older than build 4 already applied to Deployment shop-web; nothing changed",
                        false, "False"),
                new Case("a newer build rolls forward over it and InSync is True again", idp(reported(applied(APP_V1, 4)), false),
                        build5, live(HOTFIX, APP_V1, 4), RolloutPlan.PatchImages.class, "ImageUpdated",
                        "set container web to " + APP_V2 + " (build 5 of kpack Image app), container worker to " + APP_V2
                                + " (build 5 of kpack Image app) in Deployment shop-web",
                        true, "True"),
                new Case("suspended: the newer build waits, the Deployment stays", idp(applied(APP_V1, 4), true), build5,
                        live(APP_V1, APP_V1, 4), RolloutPlan.NoChange.class, "Suspended",
                        "ImageDeploy shop is suspended (spec.suspend: true): build 5 of kpack Image app (" + APP_V2
                                + ") waits for Deployment shop-web; set spec.suspend to false to roll it out",
                        true, "True"),
                new Case("suspended and up to date: Suspended, nothing written", idp(applied(APP_V1, 4), true), build4,
                        live(APP_V1, APP_V1, 4), RolloutPlan.NoChange.class, "Suspended",
                        "ImageDeploy shop is suspended (spec.suspend: true): Deployment shop-web already runs " + APP_V1,
                        false, "True"),
                new Case("suspended before the Deployment exists: not created", idp("{}", true),
                        Map.of("app", image("app", APP_V1, 4), "migrate", image("migrate", MIGRATE_V1, 7)), null,
                        RolloutPlan.NoChange.class, "Suspended",
                        "ImageDeploy shop is suspended (spec.suspend: true): build 7 of kpack Image migrate ("
                                + MIGRATE_V1 + "), build 4 of kpack Image app (" + APP_V1 + ") waits for Deployment shop-web; set spec.suspend to false to roll it out",
                        true, null));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void decides(Case c) {
        RolloutPlan plan = plan(c.idp(), c.images(), c.live());
        assertInstanceOf(c.kind(), plan);
        assertEquals(c.reason(), plan.reason());
        assertEquals(c.message(), plan.message());
        if (!c.writesStatus()) {
            assertNull(plan.status(), "status must not be written");
            return;
        }
        assertNotNull(plan.status(), "status must be written");
        JsonNode inSync = Conditions.find(written(c.idp(), plan).path("conditions"), RolloutPlanner.IN_SYNC);
        assertEquals(c.inSync(), inSync == null ? null : inSync.path("status").asText());
    }

    @Test
    void aSameNamedDeploymentThatIsNotRekonsIsAConflictAndLeftAlone() {
        DeploymentView foreign = DeploymentView.fromJson(json("""
                {"metadata": {"name": "shop-web", "namespace": "team", "resourceVersion": "9", "labels": {"app": "x"}},
                 "spec": {"template": {"spec": {"containers": [{"name": "web", "image": "nginx"}]}}}}"""));
        RolloutPlan plan = plan(idp("{}", false), Map.of("app", image("app", APP_V1, 4),
                "migrate", image("migrate", MIGRATE_V1, 7)), foreign);
        assertInstanceOf(RolloutPlan.Rejected.class, plan);
        assertEquals("DeploymentConflict", plan.reason());
        assertEquals("Deployment shop-web exists but is not Rekon's (no label app.kubernetes.io/managed-by=rekon, not"
                + " owned by ImageDeploy shop); it is left alone: rename spec.deployment.metadata.name, or delete that"
                + " Deployment to let Rekon create its own", plan.message());
    }

    @Test
    void aManualChangeIsReportedOnceByAWarning() {
        ImageDeployView before = idp(applied(APP_V1, 4), false);
        RolloutPlan plan = plan(before, Map.of("app", image("app", APP_V1, 4)), live(HOTFIX, APP_V1, 4));
        assertEquals(DRIFT, ManualChanges.newlyReported(before.currentStatus(), plan.status()));
        ImageDeployView after = idp(reported(applied(APP_V1, 4)), false);
        assertNull(ManualChanges.newlyReported(after.currentStatus(), plan.status()));
    }

    @Test
    void aSuspendedStatusNamesTheWaitingBuildAndLiftingItAppliesIt() {
        Map<String, KpackImage> build5 = Map.of("app", image("app", APP_V2, 5));
        ImageDeployView suspended = idp(applied(APP_V1, 4), true);
        RolloutPlan held = plan(suspended, build5, live(APP_V1, APP_V1, 4));
        assertGolden("suspended-status.json", written(suspended, held));

        ImageDeployView resumed = idp(written(suspended, held).toString(), false);
        RolloutPlan lifted = plan(resumed, build5, live(APP_V1, APP_V1, 4));
        assertInstanceOf(RolloutPlan.PatchImages.class, lifted);
        assertNull(written(resumed, lifted).get(RolloutStatus.WAITING), "nothing waits once applied");
        assertEquals("True", Conditions.find(written(resumed, lifted).path("conditions"), RolloutPlanner.PROGRESSING)
                .path("status").asText());
    }

    @Test
    void aPushToASuspendedImageDeployIsHeldToo() {
        ImageDeployView idp = ImageDeployView.fromJson(json("""
                {"apiVersion": "rekon.dev/v1alpha1", "kind": "ImageDeploy",
                 "metadata": {"name": "web", "namespace": "team", "uid": "u", "generation": 1},
                 "spec": {"suspend": true, "updatePolicy": {"level": "minor"}, "deployment": {"spec": {"template": {"spec": {
                   "containers": [{"name": "web", "image": "registry.local/team/web:1.0.0"}]}}}}}}"""));
        DeploymentView running = DeploymentView.fromJson(json("""
                {"metadata": {"name": "web", "resourceVersion": "3"}, "spec": {"template": {"spec": {
                   "containers": [{"name": "web", "image": "registry.local/team/web:1.0.0"}]}}}}"""));
        RolloutPlan plan = new PushRolloutPlanner().plan(new PushRolloutPlanner.Request(idp,
                json("{\"updatePolicy\": {\"level\": \"minor\"}}"),
                dev.rekon.registry.ImageReference.parse("registry.local/team/web:1.1.0"), Optional.of(running),
                RolloutPlannerTest.NOW));
        assertEquals("Suspended", plan.reason());
        assertNull(plan.status());
    }
}
