package dev.rekon.promotions.e2e;

import static dev.rekon.promotions.e2e.ImagePromotionEndToEndTest.PROMOTIONS;
import static dev.rekon.promotions.e2e.ImagePromotionEndToEndTest.event;
import static dev.rekon.promotions.e2e.ImagePromotionEndToEndTest.rolledOut;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import dev.rekon.testing.Kpack;
import dev.rekon.testing.PromotionFixtures;
import dev.rekon.testing.RekonTestResource;
import dev.rekon.testing.SharedFiles;
import dev.rekon.testing.StageApiServer;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.ExtractableResponse;
import io.restassured.response.Response;

/**
 * Staging's apiserver SIGKILLed during a promotion, twice: before the build is written there, and after, while it
 * rolls out. Each time the promotion answers 503 (Knative redelivers) and writes nothing, in staging or in its own
 * status; once staging's apiserver is back (same address, same data), the redelivered event goes on where it
 * stopped: the build is written to staging once, and staging is proven.
 */
@QuarkusTest
@QuarkusTestResource(value = RekonTestResource.class, restrictToAnnotatedClass = false)
class ImagePromotionStageOutageTest {

    static final String NS = "promo-outage";
    static final String B1 = "registry.local/promo-outage/hello@sha256:" + "8".repeat(64);

    static StageClusters clusters;
    static KubernetesClient dev;
    static StageApiServer staging;

    @BeforeAll
    static void clusters() {
        clusters = StageClusters.in(NS);
        dev = clusters.dev();
        staging = clusters.deployableStage("staging-outage", SharedFiles.projectDir().resolve("target/stage-outage"));
        clusters.kubeconfigSecret("staging-kubeconfig", staging.kubeconfig());
    }

    @AfterAll
    static void stop() {
        if (clusters != null) {
            clusters.close();
        }
    }

    @Test
    void aStageKilledMidPromotionIsA503ThenTheRedeliveryGoesOnWhereItStopped() {
        event("Image", NS, "hello", Kpack.built(dev, NS, "hello", B1, 1)).body("outcome", equalTo("applied"));
        rolledOut(NS);
        clusters.promotion(PromotionFixtures.localStage("dev", null),
                PromotionFixtures.stage("staging", "staging-kubeconfig", NS));

        staging.kill();
        String before = resourceVersion();
        assertEquals(503, reconcile().statusCode(), "staging cannot be read: redelivered");
        assertEquals(before, resourceVersion(), "nothing written while staging is down");
        staging.launch();
        ExtractableResponse<Response> promoted = redelivered();
        assertEquals("Promoted", promoted.path("reason"), promoted.asString());
        assertEquals(B1, promotedInStaging());

        clusters.stageRollsOut(staging);
        staging.kill();
        before = resourceVersion();
        assertEquals(503, reconcile().statusCode(), "staging cannot be read: redelivered");
        assertEquals(before, resourceVersion(), "nothing written while staging is down");
        staging.launch();
        ExtractableResponse<Response> proven = redelivered();
        assertEquals("applied", proven.path("outcome"), proven.asString());
        assertEquals("Proven", stage("staging").path("phase").asText());
        assertEquals(B1, promotedInStaging());
        long promotions = 0;
        for (JsonNode h : status().path("history")) {
            if ("staging".equals(h.path("stage").asText()) && "Promoting".equals(h.path("phase").asText())) {
                promotions++;
            }
        }
        assertEquals(1, promotions, "written to staging once: " + status().path("history"));
        assertEquals("unchanged", reconcile().path("outcome"), "the same event again changes nothing");
    }

    /** The reconcile event, redelivered on 5xx as Knative does (bounded), until it is answered. */
    static ExtractableResponse<Response> redelivered() {
        ExtractableResponse<Response> r = reconcile();
        for (int i = 0; i < 20 && r.statusCode() >= 500; i++) {
            sleep(500);
            r = reconcile();
        }
        assertEquals(200, r.statusCode(), r.asString());
        return r;
    }

    static ExtractableResponse<Response> reconcile() {
        return clusters.reconcile().extract();
    }

    static String promotedInStaging() {
        return clusters.promotedIn(staging);
    }

    static String resourceVersion() {
        return dev.genericKubernetesResources(PROMOTIONS).inNamespace(NS).withName("hello").get().getMetadata()
                .getResourceVersion();
    }

    static JsonNode status() {
        return clusters.promotionStatus();
    }

    static JsonNode stage(String name) {
        return clusters.stageStatus(name);
    }

    static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
