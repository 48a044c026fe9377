package dev.rekon.rollouts.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.rollouts.apply.ImageDeployStatusBody;
import dev.rekon.rollouts.apply.ImagePatchBody;
import dev.rekon.rollouts.apply.NewDeploymentBody;
import dev.rekon.rollouts.view.DeploymentView;
import dev.rekon.rollouts.view.ImageDeployView;
import dev.rekon.rollouts.view.KpackImage;

/** Table tests of every rollout decision; Deployments and patches are compared with golden files. */
class RolloutPlannerTest {

    static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    static final Instant NOW = Instant.parse("2026-11-22T10:00:00Z");
    static final String APP_V1 = "registry.local/team/app@sha256:" + "1".repeat(64);
    static final String APP_V2 = "registry.local/team/app@sha256:" + "2".repeat(64);
    static final String MIGRATE_V1 = "registry.local/team/migrate:b7";

    final RolloutPlanner planner = new RolloutPlanner();

    static KpackImage image(String name, String latest, long build) {
        return new KpackImage("team", name, "uid-" + name, latest, build, null, true, null);
    }

    static ImageDeployView idp(String apiVersion, String status) {
        return ImageDeployView.fromJson(idpJson(apiVersion, status));
    }

    static ObjectNode idpJson(String apiVersion, String status) {
        return json("""
                {"apiVersion": "%s", "kind": "ImageDeploy",
                 "metadata": {"name": "shop", "namespace": "team", "uid": "idp-uid", "resourceVersion": "7", "generation": 3},
                 "spec": {"deployment": {
                   "metadata": {"name": "shop-web", "labels": {"team": "a"}},
                   "spec": {"replicas": 2, "selector": {"matchLabels": {"app": "shop"}},
                     "strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 1, "maxUnavailable": 0}},
                     "template": {"metadata": {"labels": {"app": "shop"}}, "spec": {
                       "initContainers": [{"name": "migrate", "image": "REF=migrate"}],
                       "containers": [{"name": "web", "image": "REF=app"}, {"name": "sidecar", "image": "envoy:1.28"},
                                      {"name": "worker", "image": "REF=app"}]}}}}},
                 "status": %s}
                """.formatted(apiVersion, status));
    }

    static DeploymentView live(String web, String worker, String migrate) {
        return DeploymentView.fromJson(json("""
                {"metadata": {"name": "shop-web", "resourceVersion": "41",
                   "ownerReferences": [{"kind": "ImageDeploy", "name": "shop", "uid": "idp-uid"}]},
                 "spec": {"template": {"spec": {
                   "initContainers": [{"name": "migrate", "image": "%s"}],
                   "containers": [{"name": "web", "image": "%s"}, {"name": "sidecar", "image": "envoy:1.28"},
                                  {"name": "worker", "image": "%s"}]}}}}
                """.formatted(migrate, web, worker)));
    }

    /** A live Deployment whose annotation records {@code build} of kpack Image app as applied. */
    static DeploymentView liveRecording(String image, long build) {
        ObjectNode d = json("""
                {"metadata": {"name": "shop-web", "resourceVersion": "42", "annotations": {}, "labels": {"app.kubernetes.io/managed-by": "rekon"}},
                 "spec": {"template": {"spec": {
                   "initContainers": [{"name": "migrate", "image": "%s"}],
                   "containers": [{"name": "web", "image": "%s"}, {"name": "sidecar", "image": "envoy:1.28"},
                                  {"name": "worker", "image": "%s"}]}}}}
                """.formatted(MIGRATE_V1, image, image));
        ((ObjectNode) d.at("/metadata/annotations")).put(DeploymentView.APPLIED_BUILDS,
                "[{\"name\":\"app\",\"image\":\"%s\",\"buildCounter\":%d,\"imageUid\":\"uid-app\"}]".formatted(image, build));
        return DeploymentView.fromJson(d);
    }

    static String applied(String image, long build) {
        return """
                {"observedGeneration": 3, "deployment": "shop-web",
                 "images": [{"name": "app", "image": "%s", "buildCounter": %d, "imageUid": "uid-app", "appliedAt": "2026-11-21T00:00:00Z"}],
                 "conditions": [{"type": "Ready", "status": "True", "reason": "ImagesApplied",
                   "message": "Deployment shop-web runs the latest ready build of every referenced kpack Image",
                   "observedGeneration": 3, "lastTransitionTime": "2026-11-21T00:00:00Z"},
                  {"type": "InSync", "status": "True", "reason": "AsApplied",
                   "message": "every managed container of Deployment shop-web runs the image Rekon applied",
                   "observedGeneration": 3, "lastTransitionTime": "2026-11-21T00:00:00Z"}]}
                """.formatted(image, build);
    }

    /** The status the plan writes, as the gateway sends it over the status {@code idp} has. */
    static JsonNode written(ImageDeployView idp, RolloutPlan plan) {
        return ImageDeployStatusBody.of(idp.status(), plan.status());
    }

    RolloutPlan plan(ImageDeployView idp, Map<String, KpackImage> images, Set<String> concerned,
            DeploymentView live) {
        return planner.plan(new RolloutPlanner.Request(idp, new LinkedHashMap<>(images), concerned,
                Optional.ofNullable(live), NOW));
    }

    record Case(String name, ImageDeployView idp, Map<String, KpackImage> images, Set<String> concerned,
            DeploymentView live, Class<? extends RolloutPlan> kind, String reason, String message, boolean writesStatus) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Case> cases() {
        ImageDeployView fresh = idp("rekon.dev/v1alpha1", "{}");
        Map<String, KpackImage> both = Map.of("app", image("app", APP_V1, 4), "migrate", image("migrate", MIGRATE_V1, 7));
        return Stream.of(
                new Case("same build again: zero writes", idp("rekon.dev/v1alpha1", applied(APP_V1, 4)),
                        Map.of("app", image("app", APP_V1, 4)), Set.of("app"), live(APP_V1, APP_V1, MIGRATE_V1),
                        RolloutPlan.NoChange.class, "UpToDate", "Deployment shop-web already runs " + APP_V1, false),
                new Case("older build after a newer one", idp("rekon.dev/v1alpha1", applied(APP_V2, 5)),
                        Map.of("app", image("app", APP_V1, 4)), Set.of("app"), live(APP_V2, APP_V2, MIGRATE_V1),
                        RolloutPlan.NoChange.class, "OlderBuild",
                        "build 4 of kpack Image app is older than build 5 already applied to Deployment shop-web; nothing changed",
                        false),
                new Case("racing event lost the Deployment write: its annotation, not the status yet, knows the newer build",
                        idp("rekon.dev/v1alpha1", applied(APP_V1, 4)), Map.of("app", image("app", APP_V1, 4)),
                        Set.of("app"), liveRecording(APP_V2, 5), RolloutPlan.NoChange.class, "OlderBuild",
                        "build 4 of kpack Image app is older than build 5 already applied to Deployment shop-web; nothing changed",
                        true),
                new Case("Deployment cache behind the status: the newer record wins, the status is not rolled back",
                        idp("rekon.dev/v1alpha1", applied(APP_V2, 5)), Map.of("app", image("app", APP_V1, 4)),
                        Set.of("app"), liveRecording(APP_V1, 4), RolloutPlan.NoChange.class, "OlderBuild",
                        "build 4 of kpack Image app is older than build 5 already applied to Deployment shop-web; nothing changed",
                        false),
                new Case("annotation unreadable: the status is the record", idp("rekon.dev/v1alpha1", applied(APP_V2, 5)),
                        Map.of("app", image("app", APP_V1, 4)), Set.of("app"),
                        DeploymentView.fromJson(json("""
                                {"metadata": {"name": "shop-web", "resourceVersion": "43", "labels": {"app.kubernetes.io/managed-by": "rekon"},
                                   "annotations": {"rekon.dev/applied-builds": "not json"}},
                                 "spec": {"template": {"spec": {"containers": [{"name": "web", "image": "%s"}]}}}}
                                """.formatted(APP_V2))),
                        RolloutPlan.NoChange.class, "OlderBuild",
                        "build 4 of kpack Image app is older than build 5 already applied to Deployment shop-web; nothing changed",
                        false),
                new Case("recreated Image restarts its build numbers", idp("rekon.dev/v1alpha1", applied(APP_V1, 5)),
                        Map.of("app", new KpackImage("team", "app", "other-uid", APP_V2, 1L, null, true, null)),
                        Set.of("app"), live(APP_V1, APP_V1, MIGRATE_V1), RolloutPlan.PatchImages.class, "ImageUpdated",
                        "set container web to " + APP_V2 + " (build 1 of kpack Image app), container worker to " + APP_V2
                                + " (build 1 of kpack Image app) in Deployment shop-web",
                        true),
                new Case("referenced Image does not exist", fresh, Map.of("app", image("app", APP_V1, 4)),
                        Set.of("app", "migrate"), null, RolloutPlan.Rejected.class, "ImageNotFound",
                        "kpack Image migrate referenced by ImageDeploy shop does not exist in namespace team: create it or fix the REF= image",
                        true),
                new Case("Image not ready yet: no Deployment created", fresh,
                        Map.of("app", image("app", APP_V1, 4), "migrate",
                                new KpackImage("team", "migrate", "u", null, null, null, false, "Ready is Unknown (BuildRunning)")),
                        Set.of("app", "migrate"), null, RolloutPlan.NoChange.class, "ImageNotReady",
                        "Deployment shop-web is not created yet: kpack Image migrate has no ready image; migrate: Ready is Unknown (BuildRunning)",
                        true),
                new Case("Image not ready: the running Deployment keeps its image", idp("rekon.dev/v1alpha1", applied(APP_V1, 4)),
                        Map.of("app", new KpackImage("team", "app", "uid-app", APP_V1, 5L, null, false, "Ready is False (BuildFailed)")),
                        Set.of("app"), live(APP_V1, APP_V1, MIGRATE_V1), RolloutPlan.NoChange.class, "ImageNotReady",
                        "kpack Image app is not ready; Deployment shop-web keeps its current image", true),
                new Case("every Image ready: Deployment created", fresh, both, Set.of("app", "migrate"), null,
                        RolloutPlan.Create.class, "DeploymentCreated",
                        "created Deployment shop-web with initContainer migrate=" + MIGRATE_V1 + ", container web=" + APP_V1
                                + ", container worker=" + APP_V1,
                        true),
                new Case("every Image ready, the name taken by a Deployment Rekon does not manage: a conflict, no create",
                        fresh, both, Set.of("app", "migrate"), nameTaken(), RolloutPlan.Rejected.class,
                        RolloutPlanner.CONFLICT, NAME_TAKEN, true));
        }

    static final String NAME_TAKEN = "Deployment shop-web exists but is not Rekon's (no label"
            + " app.kubernetes.io/managed-by=rekon, not owned by ImageDeploy shop); it is left alone: rename"
            + " spec.deployment.metadata.name, or delete that Deployment to let Rekon create its own";

    /** A Deployment named as the ImageDeploy's, created by someone else: no Rekon label, no owner. */
    static DeploymentView nameTaken() {
        return DeploymentView.fromJson(json("""
                {"metadata": {"name": "shop-web", "resourceVersion": "9"},
                 "spec": {"template": {"spec": {"containers": [{"name": "web", "image": "nginx:1.25"}]}}}}
                """));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void decides(Case c) {
        RolloutPlan plan = plan(c.idp(), c.images(), c.concerned(), c.live());
        assertInstanceOf(c.kind(), plan);
        assertEquals(c.reason(), plan.reason());
        assertEquals(c.message(), plan.message());
        if (c.writesStatus()) {
            assertNotNull(plan.status(), "status must be written");
        } else {
            assertNull(plan.status(), "status must not be written");
        }
    }

    @Test
    void aNameTakenIsRefusedWithAStatusSayingWhatToDo() {
        ImageDeployView idp = idp("rekon.dev/v1alpha1", "{}");
        RolloutPlan plan = plan(idp, Map.of("app", image("app", APP_V1, 4), "migrate", image("migrate", MIGRATE_V1, 7)),
                Set.of("app", "migrate"), nameTaken());
        assertGolden("name-taken-status.json", written(idp, plan));
    }

    @Test
    void createsTheDeploymentWithOwnerLabelsAndExactImages() {
        ImageDeployView idp = idp("rekon.dev/v1alpha1", "{}");
        RolloutPlan plan = plan(idp, Map.of("app", image("app", APP_V1, 4), "migrate", image("migrate", MIGRATE_V1, 7)),
                Set.of("app", "migrate"), null);
        assertGolden("create-deployment.json", NewDeploymentBody.of(((RolloutPlan.Create) plan).deployment()));
        assertGolden("create-status.json", written(idp, plan));
    }

    @Test
    void patchesOnlyTheImagesThatChangedDigestsIncluded() {
        ImageDeployView idp = idp("rekon.dev/v1alpha1", applied(APP_V1, 4));
        RolloutPlan plan = plan(idp, Map.of("app", image("app", APP_V2, 5)), Set.of("app"), live(APP_V1, APP_V1, MIGRATE_V1));
        assertGolden("patch-images.json", ImagePatchBody.of(((RolloutPlan.PatchImages) plan).patch()));
        assertGolden("patch-status.json", written(idp, plan));
    }

    @Test
    void kpushImageDeploysOwnTheirDeploymentsToo() {
        RolloutPlan plan = plan(idp("crd.whizzosoftware.com/v1alpha1", "{}"),
                Map.of("app", image("app", APP_V1, 4), "migrate", image("migrate", MIGRATE_V1, 7)),
                Set.of("app", "migrate"), null);
        JsonNode owner = NewDeploymentBody.of(((RolloutPlan.Create) plan).deployment()).at("/metadata/ownerReferences/0");
        assertEquals("crd.whizzosoftware.com/v1alpha1", owner.path("apiVersion").asText());
        assertEquals("idp-uid", owner.path("uid").asText());
    }

    @Test
    void aStatusOnlyDifferenceIsWrittenOnceThenNeverAgain() {
        ImageDeployView first = idp("rekon.dev/v1alpha1", "{}");
        RolloutPlan once = plan(first, Map.of("app", image("app", APP_V1, 4), "migrate", image("migrate", MIGRATE_V1, 7)),
                Set.of("app", "migrate"), live(APP_V1, APP_V1, MIGRATE_V1));
        assertInstanceOf(RolloutPlan.NoChange.class, once);
        assertNotNull(once.status());
        ImageDeployView after = new ImageDeployView(first.apiVersion(), first.kind(), first.namespace(), first.name(),
                first.uid(), "8", first.generation(), first.deployment(), written(first, once));
        RolloutPlan twice = plan(after, Map.of("app", image("app", APP_V1, 4), "migrate", image("migrate", MIGRATE_V1, 7)),
                Set.of("app", "migrate"), live(APP_V1, APP_V1, MIGRATE_V1));
        assertEquals("UpToDate", twice.reason());
        assertNull(twice.status());
    }

    @Test
    void aStatusRecordWithoutTheImageUidMatchesTheAnnotationSoNothingIsWritten() {
        ImageDeployView idp = idp("rekon.dev/v1alpha1", applied(APP_V2, 5).replace("\"imageUid\": \"uid-app\", ", ""));
        RolloutPlan plan = plan(idp, Map.of("app", image("app", APP_V2, 5)), Set.of("app"), liveRecording(APP_V2, 5));
        assertEquals("UpToDate", plan.reason());
        assertNull(plan.status());
    }

    @Test
    void afterAStatusConflictTheStatusRecordsTheRolloutThatWasApplied() {
        Map<String, KpackImage> images = Map.of("app", image("app", APP_V2, 5));
        RolloutPlan applied = plan(idp("rekon.dev/v1alpha1", applied(APP_V1, 4)), images, Set.of("app"),
                live(APP_V1, APP_V1, MIGRATE_V1));
        assertInstanceOf(RolloutPlan.PatchImages.class, applied);
        // Another event wrote the status in between; the Deployment already runs build 5.
        ImageDeployView reread = idp("rekon.dev/v1alpha1", applied(APP_V1, 4).replace("\"observedGeneration\": 3,",
                "\"observedGeneration\": 3, \"note\": \"written by another event\","));
        JsonNode status = ImageDeployStatusBody.of(reread.status(), planner.statusAfter(new RolloutPlanner.Request(
                reread, new LinkedHashMap<>(images), Set.of("app"), Optional.of(liveRecording(APP_V2, 5)), NOW), applied));
        assertEquals(5, status.at("/images/0/buildCounter").asInt());
        assertEquals("written by another event", status.path("note").asText());
        JsonNode progressing = dev.rekon.cluster.Conditions.find(status.path("conditions"), RolloutPlanner.PROGRESSING);
        assertEquals("ImageUpdated", progressing.path("reason").asText());
        assertEquals(applied.message(), progressing.path("message").asText());
    }

    @Test
    void afterAStatusConflictNothingIsWrittenWhenTheDeploymentHasMovedOn() {
        Map<String, KpackImage> images = Map.of("app", image("app", APP_V2, 5));
        RolloutPlan applied = plan(idp("rekon.dev/v1alpha1", applied(APP_V1, 4)), images, Set.of("app"),
                live(APP_V1, APP_V1, MIGRATE_V1));
        String v3 = "registry.local/team/app@sha256:" + "3".repeat(64);
        assertNull(planner.statusAfter(new RolloutPlanner.Request(idp("rekon.dev/v1alpha1", applied(APP_V1, 4)),
                new LinkedHashMap<>(images), Set.of("app"), Optional.of(liveRecording(v3, 6)), NOW), applied));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalidSpecs")
    void rejectsSpecsThatCannotBeDeployed(String name, String deployment, String message) {
        ImageDeployView idp = ImageDeployView.fromJson(json("""
                {"apiVersion": "rekon.dev/v1alpha1", "kind": "ImageDeploy",
                 "metadata": {"name": "bad", "namespace": "team", "uid": "u", "generation": 1},
                 "spec": %s}""".formatted(deployment)));
        RolloutPlan plan = plan(idp, Map.of(), Set.of(), null);
        assertInstanceOf(RolloutPlan.Rejected.class, plan);
        assertEquals("InvalidSpec", plan.reason());
        assertEquals(message, plan.message());
    }

    static Stream<Arguments> invalidSpecs() {
        return Stream.of(
                Arguments.of("no deployment", "{}", "spec.deployment is missing: set it to a Deployment's metadata and spec"),
                Arguments.of("no containers", "{\"deployment\": {\"spec\": {\"template\": {\"spec\": {}}}}}",
                        "spec.deployment.spec.template.spec.containers is empty: a Deployment needs at least one container"),
                Arguments.of("unnamed container",
                        "{\"deployment\": {\"spec\": {\"template\": {\"spec\": {\"containers\": [{\"image\": \"REF=app\"}]}}}}}",
                        "every entry of spec.deployment.spec.template.spec.containers needs a name"),
                Arguments.of("empty REF",
                        "{\"deployment\": {\"spec\": {\"template\": {\"spec\": {\"containers\": [{\"name\": \"web\", \"image\": \"REF=\"}]}}}}}",
                        "container 'web' has image 'REF=' without a kpack Image name"));
    }

    @Test
    void readsKpackImageStatus() {
        KpackImage img = KpackImage.fromJson(json("""
                {"metadata": {"name": "app", "namespace": "team", "uid": "u1"},
                 "status": {"latestImage": "%s", "latestBuildRef": "app-build-12", "buildCounter": 12,
                   "conditions": [{"type": "Ready", "status": "True"}, {"type": "BuilderReady", "status": "True"}]}}
                """.formatted(APP_V2)));
        assertEquals(12L, img.buildCounter());
        assertEquals(APP_V2, img.latestImage());
        assertEquals(true, img.rollable());
        KpackImage fromRef = KpackImage.fromJson(json("""
                {"metadata": {"name": "app"}, "status": {"latestBuildRef": "app-build-3-abcde",
                 "conditions": [{"type": "Ready", "status": "Unknown", "reason": "BuildRunning"}]}}"""));
        assertEquals(3L, fromRef.buildCounter());
        assertEquals("Ready is Unknown (BuildRunning)", fromRef.notReadyMessage());
    }

    static ObjectNode json(String s) {
        try {
            return (ObjectNode) JSON.readTree(s);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void assertGolden(String file, JsonNode actual) {
        Path golden = Path.of("src/test/resources/golden/rollouts", file);
        try {
            if (Boolean.getBoolean("rekon.golden.update")) {
                Files.writeString(golden, JSON.writeValueAsString(actual) + "\n");
            }
            org.junit.jupiter.api.Assertions.assertTrue(Files.exists(golden), "golden file " + golden + " is missing;"
                    + " write it with -Drekon.golden.update=true and review it:\n" + actual.toPrettyString());
            JsonNode expected = JSON.readTree(Files.readString(golden));
            org.junit.jupiter.api.Assertions.assertTrue(dev.rekon.cluster.JsonEquality.same(expected, actual),
                    "differs from golden file " + golden + ":\n" + actual.toPrettyString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
