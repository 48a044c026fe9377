package dev.rekon.promotions.e2e;

import static dev.rekon.promotions.e2e.ImagePromotionEndToEndTest.PROMOTED;
import static dev.rekon.promotions.e2e.ImagePromotionEndToEndTest.PROMOTIONS;
import static dev.rekon.promotions.e2e.ImagePromotionEndToEndTest.event;
import static dev.rekon.promotions.e2e.ImagePromotionEndToEndTest.reports;
import static dev.rekon.promotions.e2e.ImagePromotionEndToEndTest.rolledOut;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import dev.rekon.testing.Await;
import dev.rekon.testing.Kpack;
import dev.rekon.testing.RekonTestResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apps.DeploymentStatus;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.ValidatableResponse;

/**
 * A newer build fails in staging on the real apiserver (its Deployment misses its progress deadline): it goes no
 * further, staging's PromotedImage goes back to the build proven there (rollback Automatic), the stage's rollout
 * takes it although it is older, and the failed build never enters again; a duplicate event changes nothing.
 */
@QuarkusTest
@QuarkusTestResource(value = RekonTestResource.class, restrictToAnnotatedClass = false)
class ImagePromotionRollbackEndToEndTest {

    static final String DEV = "promo2-dev";
    static final String STAGING = "promo2-staging";
    static final String B1 = "registry.local/promo2/hello@sha256:" + "1".repeat(64);
    static final String B2 = "registry.local/promo2/hello@sha256:" + "2".repeat(64);

    static StageClusters clusters;
    static KubernetesClient k8s;

    @BeforeAll
    static void stages() {
        clusters = StageClusters.in(DEV);
        k8s = clusters.dev();
        clusters.namespaceStage(STAGING);
    }

    static GenericKubernetesResource promotion() {
        return Serialization.unmarshal("""
                {"apiVersion": "rekon.dev/v1alpha1", "kind": "ImagePromotion",
                 "metadata": {"name": "hello", "namespace": "%s"},
                 "spec": {"source": {"image": "hello"}, "rollback": "Automatic", "stages": [
                   {"name": "dev", "imageDeploys": ["hello"]},
                   {"name": "staging", "namespace": "%s", "promotedImage": "hello", "imageDeploys": ["hello"]}]}}
                """.formatted(DEV, STAGING), GenericKubernetesResource.class);
    }

    static ValidatableResponse reconcile() {
        return clusters.reconcile().statusCode(200);
    }

    static ValidatableResponse promotedEvent() {
        return event("PromotedImage", STAGING, "hello", k8s.genericKubernetesResources(PROMOTED).inNamespace(STAGING)
                .withName("hello").get());
    }

    /** The test as the Deployment controller: the rollout made no progress within its deadline. */
    static void missedItsDeadline(String ns) {
        k8s.apps().deployments().inNamespace(ns).withName("hello").editStatus(d -> {
            String now = Instant.now().toString();
            d.setStatus(Serialization.unmarshal("""
                    {"observedGeneration": %d, "replicas": 2, "updatedReplicas": 1, "readyReplicas": 1,
                     "availableReplicas": 1, "unavailableReplicas": 1, "conditions": [
                       {"type": "Available", "status": "True", "reason": "MinimumReplicasAvailable",
                        "lastTransitionTime": "%s", "lastUpdateTime": "%s"},
                       {"type": "Progressing", "status": "False", "reason": "ProgressDeadlineExceeded",
                        "message": "ReplicaSet \\"hello-2\\" has timed out progressing.",
                        "lastTransitionTime": "%s", "lastUpdateTime": "%s"}]}
                    """.formatted(d.getMetadata().getGeneration(), now, now, now, now), DeploymentStatus.class));
            return d;
        });
        ImagePromotionEndToEndTest.saysRolledOut(ns, "False", "ProgressDeadlineExceeded");
    }

    static JsonNode status(String stage) {
        JsonNode p = ImagePromotionEndToEndTest.JSON.valueToTree(k8s.genericKubernetesResources(PROMOTIONS)
                .inNamespace(DEV).withName("hello").get());
        for (JsonNode s : p.path("status").path("stages")) {
            if (stage.equals(s.path("name").asText())) {
                return s;
            }
        }
        return null;
    }

    /** Waits until the promotion's status shows the stage in this phase. */
    static void phase(String stage, String phase) {
        Await.until(stage + " " + phase, () -> {
            JsonNode s = status(stage);
            return s != null && phase.equals(s.path("phase").asText());
        });
    }

    static String deployedImage(String ns) {
        return k8s.apps().deployments().inNamespace(ns).withName("hello").get().getSpec().getTemplate().getSpec()
                .getContainers().get(0).getImage();
    }

    @Test
    void aBuildThatFailsInStagingStopsThereAndStagingGoesBack() {
        event("Image", DEV, "hello", Kpack.built(k8s, DEV, "hello", B1, 1)).body("outcome", equalTo("applied"));
        reports(DEV, B1);
        rolledOut(DEV);
        k8s.genericKubernetesResources(PROMOTIONS).inNamespace(DEV).resource(promotion()).createOr(r -> r.update());
        reconcile().body("reason", equalTo("Promoted"));
        promotedEvent().body("outcome", equalTo("applied"));
        reports(STAGING, B1);
        rolledOut(STAGING);
        // The RolledOut Rekon writes here is itself the trigger: no event is needed, and a reconcile changes nothing.
        phase("staging", "Proven");
        reconcile().body("outcome", equalTo("unchanged"));

        event("Image", DEV, "hello", Kpack.built(k8s, DEV, "hello", B2, 2)).body("outcome", equalTo("applied"));
        reports(DEV, B2);
        rolledOut(DEV);
        Await.until("B2 promoted to staging by dev's own RolledOut", () -> B2.equals(
                ImagePromotionEndToEndTest.promoted(STAGING).path("status").path("latestImage").asText()));
        reconcile().body("outcome", equalTo("unchanged"));
        promotedEvent().body("outcome", equalTo("applied"));
        assertEquals(B2, deployedImage(STAGING));
        reports(STAGING, B2);
        missedItsDeadline(STAGING);
        phase("staging", "RolledBack");
        reconcile().body("outcome", equalTo("unchanged"));
        JsonNode staging = status("staging");
        assertEquals("RolledBack", staging.path("phase").asText());
        assertEquals(B2, staging.path("lastFailed").asText());
        JsonNode promoted = ImagePromotionEndToEndTest.promoted(STAGING);
        assertEquals(B1, promoted.path("status").path("latestImage").asText());
        assertEquals(3, promoted.path("status").path("buildCounter").asLong(), "one up on each write");

        promotedEvent().body("outcome", equalTo("applied"));
        assertEquals(B1, deployedImage(STAGING), "the stage's rollout takes the older build back");
        reports(STAGING, B1);
        rolledOut(STAGING);
        reconcile().body("outcome", equalTo("unchanged"));
        assertEquals(List.of(B1, "RolledBack"), List.of(status("staging").path("image").asText(),
                status("staging").path("phase").asText()), "the failed build never enters again");
    }
}
