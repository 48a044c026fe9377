package dev.rekon.rollouts.plan;

import static dev.rekon.rollouts.plan.RolloutPlannerTest.APP_V1;
import static dev.rekon.rollouts.plan.RolloutPlannerTest.APP_V2;
import static dev.rekon.rollouts.plan.RolloutPlannerTest.MIGRATE_V1;
import static dev.rekon.rollouts.plan.RolloutPlannerTest.NOW;
import static dev.rekon.rollouts.plan.RolloutPlannerTest.applied;
import static dev.rekon.rollouts.plan.RolloutPlannerTest.idp;
import static dev.rekon.rollouts.plan.RolloutPlannerTest.image;
import static dev.rekon.rollouts.plan.RolloutPlannerTest.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.cluster.Conditions;
import dev.rekon.rollouts.view.DeploymentView;
import dev.rekon.rollouts.view.ImageDeployStatus;
import dev.rekon.rollouts.view.ImageDeployView;
import dev.rekon.rollouts.view.KpackImage;

/** The {@code RolledOut} condition each rollout plan decides from its Deployment's status. */
class RolledOutPlannerTest {

    final RolloutPlanner planner = new RolloutPlanner();

    /** The Deployment Rekon wrote with {@code image} (build 4), at generation 5, with this status and replicas. */
    static DeploymentView deployment(String image, String replicas, String status) {
        ObjectNode d = json("""
                {"metadata": {"name": "shop-web", "resourceVersion": "42", "generation": 5,
                   "labels": {"app.kubernetes.io/managed-by": "rekon"}, "annotations": {}},
                 "spec": {%s"template": {"spec": {
                   "initContainers": [{"name": "migrate", "image": "%s"}],
                   "containers": [{"name": "web", "image": "%s"}, {"name": "sidecar", "image": "envoy:1.28"},
                                  {"name": "worker", "image": "%s"}]}}},
                 "status": %s}
                """.formatted(replicas == null ? "" : "\"replicas\": " + replicas + ", ", MIGRATE_V1, image, image,
                status));
        ((ObjectNode) d.at("/metadata/annotations")).put(DeploymentView.APPLIED_BUILDS,
                "[{\"name\":\"app\",\"image\":\"%s\",\"buildCounter\":4,\"imageUid\":\"uid-app\"}]".formatted(image));
        return DeploymentView.fromJson(d);
    }

    static String status(long observed, int replicas, int updated, int available, String progressing) {
        return """
                {"observedGeneration": %d, "replicas": %d, "updatedReplicas": %d, "availableReplicas": %d,
                 "conditions": [%s]}""".formatted(observed, replicas, updated, available, progressing);
    }

    static final String PROGRESSING = """
            {"type": "Progressing", "status": "True", "reason": "ReplicaSetUpdated"}""";
    static final String DEADLINE = """
            {"type": "Progressing", "status": "False", "reason": "ProgressDeadlineExceeded",
             "message": "ReplicaSet \\"shop-web-7f\\" has timed out progressing."}""";

    record Row(String name, String replicas, String deploymentStatus, String status, String reason, String message) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Row> rows() {
        return Stream.of(
                new Row("observed, every replica updated and available", "2", status(5, 2, 2, 2, PROGRESSING), "True",
                        "RolloutComplete", "Deployment shop-web has rolled out: all 2 replicas updated and available"),
                new Row("generation not observed yet", "2", status(4, 2, 2, 2, PROGRESSING), "False", "Progressing",
                        "Deployment shop-web has not observed generation 5 yet"),
                new Row("no status at all yet", "2", "{}", "False", "Progressing",
                        "Deployment shop-web has not observed generation 5 yet"),
                new Row("replicas still updating", "2", status(5, 3, 1, 2, PROGRESSING), "False", "Progressing",
                        "Deployment shop-web is rolling out: not every one of its 2 replicas is updated and available yet"),
                new Row("updated but not available", "2", status(5, 2, 2, 1, PROGRESSING), "False", "Progressing",
                        "Deployment shop-web is rolling out: not every one of its 2 replicas is updated and available yet"),
                new Row("scaled to zero: observed is rolled out", "0", status(5, 0, 0, 0, PROGRESSING), "True",
                        "RolloutComplete", "Deployment shop-web has rolled out: all 0 replicas updated and available"),
                new Row("replicas absent count as one", null, status(5, 0, 0, 0, PROGRESSING), "False", "Progressing",
                        "Deployment shop-web is rolling out: not every one of its 1 replicas is updated and available yet"),
                new Row("progress deadline exceeded", "2", status(5, 3, 1, 2, DEADLINE), "False",
                        "ProgressDeadlineExceeded", "Deployment shop-web gave up rolling out: ReplicaSet \"shop-web-7f\""
                                + " has timed out progressing."));
    }

    RolloutPlan plan(ImageDeployView idp, Map<String, KpackImage> images, DeploymentView live) {
        return planner.plan(new RolloutPlanner.Request(idp, new LinkedHashMap<>(images), Set.of("app"),
                Optional.ofNullable(live), NOW));
    }

    /** The plan that patched build 5 of kpack Image app into the Deployment, which ran build 4, rolled out. */
    RolloutPlan build5Applied(ImageDeployView idp) {
        return plan(idp, Map.of("app", image("app", APP_V2, 5)), deployment(APP_V1, "2", status(5, 2, 2, 2,
                PROGRESSING)));
    }

    static RolloutPlanner.Request build5Request(ImageDeployView idp, DeploymentView live) {
        return new RolloutPlanner.Request(idp, new LinkedHashMap<>(Map.of("app", image("app", APP_V2, 5))),
                Set.of("app"), Optional.of(live), NOW);
    }

    /** The status the ImageDeploy holds once {@code status} is written over its own. */
    static JsonNode written(ImageDeployView idp, ImageDeployStatus status) {
        return dev.rekon.rollouts.apply.ImageDeployStatusBody.of(idp.status(), status);
    }

    /** The request again, from the ImageDeploy as it is once {@code written} (its new status) stands. */
    static RolloutPlanner.Request withStatus(RolloutPlanner.Request r, JsonNode written) {
        ImageDeployView idp = r.imageDeploy();
        ImageDeployView after = new ImageDeployView(idp.apiVersion(), idp.kind(), idp.namespace(), idp.name(),
                idp.uid(), "8", idp.generation(), idp.deployment(), written);
        return new RolloutPlanner.Request(after, r.images(), r.concerned(), r.deployment(), NOW);
    }

    static JsonNode rolledOut(ImageDeployView idp, RolloutPlan plan) {
        return Conditions.find(RolloutPlannerTest.written(idp, plan).path("conditions"), RolledOut.TYPE);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void anUpToDateDeploymentReportsItsRollout(Row row) {
        ImageDeployView idp = idp("rekon.dev/v1alpha1", applied(APP_V1, 4));
        RolloutPlan plan = plan(idp, Map.of("app", image("app", APP_V1, 4)),
                deployment(APP_V1, row.replicas(), row.deploymentStatus()));
        assertEquals(RolloutPlanner.UP_TO_DATE, plan.reason());
        JsonNode c = rolledOut(idp, plan);
        assertNotNull(c, "RolledOut is written");
        assertEquals(row.status(), c.path("status").asText());
        assertEquals(row.reason(), c.path("reason").asText());
        assertEquals(row.message(), c.path("message").asText());
        assertEquals(3, c.path("observedGeneration").asLong(), "the ImageDeploy's generation");
    }

    @Test
    void theSameRolloutReportedTwiceWritesNothing() {
        ImageDeployView idp = idp("rekon.dev/v1alpha1", applied(APP_V1, 4));
        DeploymentView live = deployment(APP_V1, "2", status(5, 2, 2, 2, PROGRESSING));
        RolloutPlan once = plan(idp, Map.of("app", image("app", APP_V1, 4)), live);
        ImageDeployView after = new ImageDeployView(idp.apiVersion(), idp.kind(), idp.namespace(), idp.name(),
                idp.uid(), "8", idp.generation(), idp.deployment(), RolloutPlannerTest.written(idp, once));
        assertNull(plan(after, Map.of("app", image("app", APP_V1, 4)), live).status());
    }

    @Test
    void aPatchStartsARolloutWhateverTheDeploymentReadBeforeItShows() {
        ImageDeployView idp = idp("rekon.dev/v1alpha1", applied(APP_V1, 4));
        RolloutPlan plan = plan(idp, Map.of("app", image("app", APP_V2, 5)),
                deployment(APP_V1, "2", status(5, 2, 2, 2, PROGRESSING)));
        assertEquals("ImageUpdated", plan.reason());
        JsonNode c = rolledOut(idp, plan);
        assertEquals("False", c.path("status").asText());
        assertEquals("Progressing", c.path("reason").asText());
    }

    @Test
    void aDeploymentsChangeOnlyMakesTheStatusFollowItsRollout() {
        ImageDeployView idp = idp("rekon.dev/v1alpha1", applied(APP_V1, 4));
        RolloutPlanner.Request request = new RolloutPlanner.Request(idp, new LinkedHashMap<>(
                Map.of("app", image("app", APP_V2, 5))), Set.of("app"),
                Optional.of(deployment(APP_V1, "2", status(5, 2, 2, 2, PROGRESSING))), NOW);
        JsonNode written = written(idp, planner.observed(request));
        JsonNode c = Conditions.find(written.path("conditions"), RolledOut.TYPE);
        assertEquals("True", c.path("status").asText());
        assertEquals(APP_V1, written.at("/images/0/image").asText(), "the newer build waits for its own event");
        assertEquals("deployed", written.at("/history/0/change").asText());
        assertEquals(3, written.path("observedGeneration").asLong(), "kept as it was");
        assertNull(planner.observed(withStatus(request, written)), "the same rollout observed twice writes nothing");
    }

    /**
     * A rollout's status pass that a Deployment's change ran early says both: the rollout that wrote the
     * Deployment, and {@code RolledOut} as the Deployment's status says it now; the change needs no pass of its own.
     */
    @Test
    void aRolloutsStatusPassSaysItsRolloutAndWhatTheDeploymentShowsOfIt() {
        ImageDeployView idp = idp("rekon.dev/v1alpha1", applied(APP_V1, 4));
        RolloutPlan applied = build5Applied(idp);
        RolloutPlanner.Request fresh = build5Request(idp, deployment(APP_V2, "2", status(4, 2, 2, 2, PROGRESSING)));
        JsonNode written = written(idp, planner.statusPass(fresh, applied));
        JsonNode rolledOut = Conditions.find(written.path("conditions"), RolledOut.TYPE);
        assertEquals("False", rolledOut.path("status").asText());
        assertEquals("Deployment shop-web has not observed generation 5 yet", rolledOut.path("message").asText());
        JsonNode progressing = Conditions.find(written.path("conditions"), RolloutPlanner.PROGRESSING);
        assertEquals(applied.message(), progressing.path("message").asText());
        assertNull(planner.observed(withStatus(fresh, written)), "the Deployment's change has nothing left to write");
    }

    /** After the Deployment moved on, the pass has no rollout to report, but still follows the Deployment. */
    @Test
    void aRolloutsStatusPassAfterTheDeploymentMovedOnStillSaysWhatItShows() {
        ImageDeployView idp = idp("rekon.dev/v1alpha1", applied(APP_V1, 4));
        RolloutPlan applied = build5Applied(idp);
        String v3 = "registry.local/team/app@sha256:" + "3".repeat(64);
        RolloutPlanner.Request movedOn = build5Request(idp, deployment(v3, "2", status(5, 2, 2, 2, PROGRESSING)));
        assertNull(planner.statusAfter(movedOn, applied), "no rollout of its own to report");
        assertEquals(planner.observed(movedOn), planner.statusPass(movedOn, applied));
        assertNotNull(planner.statusPass(movedOn, applied));
    }

    @Test
    void aDeploymentThatCarriesNoGenerationLeavesRolledOutAsItIs() {
        ImageDeployView idp = idp("rekon.dev/v1alpha1", applied(APP_V1, 4));
        RolloutPlan plan = plan(idp, Map.of("app", image("app", APP_V1, 4)),
                RolloutPlannerTest.live(APP_V1, APP_V1, MIGRATE_V1));
        assertNull(plan.status(), "nothing to report, nothing written");
    }

    @Test
    void aRejectedImageDeployLeavesRolledOutAsItIs() {
        ImageDeployView idp = idp("rekon.dev/v1alpha1", applied(APP_V1, 4));
        RolloutPlan plan = planner.plan(new RolloutPlanner.Request(idp, new LinkedHashMap<>(), Set.of("app"),
                Optional.of(deployment(APP_V1, "2", status(5, 2, 2, 2, PROGRESSING))), NOW));
        assertEquals("ImageNotFound", plan.reason());
        assertNull(rolledOut(idp, plan));
    }
}
