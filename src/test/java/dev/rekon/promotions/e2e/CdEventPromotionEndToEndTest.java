package dev.rekon.promotions.e2e;

import static dev.rekon.promotions.e2e.ImagePromotionEndToEndTest.PROMOTED;
import static dev.rekon.promotions.e2e.ImagePromotionEndToEndTest.PROMOTIONS;
import static dev.rekon.promotions.e2e.ImagePromotionEndToEndTest.deploymentRolledOut;
import static dev.rekon.promotions.e2e.ImagePromotionEndToEndTest.event;
import static dev.rekon.promotions.e2e.ImagePromotionEndToEndTest.reports;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.rekon.testing.Await;
import dev.rekon.testing.Kpack;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;

/**
 * A stage's rollout completing is what moves the promotion on: this Rekon's CDEvents sink is its own HTTP port,
 * so the dev stage's ImageDeploy finishing its rollout (the test acting as the Deployment controller) sends
 * {@code dev.cdevents.service.deployed.0.3.0}, which Rekon receives as a promotion trigger, and the build enters
 * staging with no other event.
 */
@QuarkusTest
@TestProfile(CdEventPromotionEndToEndTest.SinkIsRekon.class)
class CdEventPromotionEndToEndTest {

    static final String DEV = "cde-dev";
    static final String STAGING = "cde-staging";
    static final String B1 = "registry.local/cde/hello@sha256:" + "c".repeat(64);

    /** CDEvents go to this application's own port, naming this cluster {@code dev-cluster}. */
    public static class SinkIsRekon implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("rekon.cdevents.sink", "http://127.0.0.1:${quarkus.http.test-port}/",
                    "rekon.cdevents.environment", "dev-cluster");
        }
    }

    @Inject
    MeterRegistry metrics;

    @BeforeAll
    static void stages() {
        StageClusters.in(DEV).namespaceStage(STAGING);
    }

    double sent(String outcome) {
        return metrics.find("rekon.cdevents.sent").tag("outcome", outcome).counters().stream()
                .mapToDouble(c -> c.count()).sum();
    }

    @Test
    void aStageRolloutCompletingSendsTheCdEventThatPromotes() {
        var k8s = ImagePromotionEndToEndTest.k8s;
        event("Image", DEV, "hello", Kpack.built(k8s, DEV, "hello", B1, 1)).body("outcome", equalTo("applied"));
        reports(DEV, B1);
        GenericKubernetesResource p = k8s.genericKubernetesResources(PROMOTIONS).inNamespace(DEV).resource(
                Serialization.unmarshal("""
                        {"apiVersion": "rekon.dev/v1alpha1", "kind": "ImagePromotion",
                         "metadata": {"name": "hello", "namespace": "%s"},
                         "spec": {"source": {"image": "hello"}, "stages": [
                           {"name": "dev", "imageDeploys": ["hello"]},
                           {"name": "staging", "namespace": "%s", "promotedImage": "hello",
                            "imageDeploys": ["hello"]}]}}
                        """.formatted(DEV, STAGING), GenericKubernetesResource.class)).createOr(r -> r.update());
        event("ImagePromotion", DEV, "hello", p);
        assertNull(ImagePromotionEndToEndTest.promoted(STAGING), "dev has not rolled out yet");

        deploymentRolledOut(DEV);
        // The PromotedImage is created, then its status written: the build has entered once the status names one.
        Await.until("the build enters staging", () -> ImagePromotionEndToEndTest.promoted(STAGING) != null
                && !ImagePromotionEndToEndTest.promoted(STAGING).path("status").path("latestImage").asText().isEmpty());
        assertEquals(B1, ImagePromotionEndToEndTest.promoted(STAGING).path("status").path("latestImage").asText());
        Await.until("the CDEvent is counted as sent", () -> sent("sent") >= 1);
        assertEquals(0, sent("failed"));
        var idp = ImagePromotionEndToEndTest.JSON.valueToTree(k8s.genericKubernetesResources(PROMOTED.getGroup()
                + "/v1alpha1", "ImageDeploy").inNamespace(DEV).withName("hello").get());
        assertEquals("deployed", ((com.fasterxml.jackson.databind.JsonNode) idp).at("/status/history/0/change").asText());
    }
}
