package dev.rekon.promotions.e2e;

import static dev.rekon.promotions.e2e.ImagePromotionEndToEndTest.event;
import static dev.rekon.promotions.e2e.ImagePromotionEndToEndTest.rolledOut;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.rekon.testing.Await;
import dev.rekon.testing.Events;
import dev.rekon.testing.Kpack;
import dev.rekon.testing.PromotionFixtures;
import dev.rekon.testing.RekonTestResource;
import dev.rekon.testing.StageApiServer;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * A remote stage's rollout moves the promotion on from the watch of that stage's cluster, with no event: dev is the
 * cluster Rekon runs in; staging and prod are apiservers of their own, whose Rekon (the test plays it, and their
 * Deployment controllers) sends no CDEvent. The first build goes through with a reconcile event, which starts the
 * stages' watches; the second reaches prod from staging's {@code RolledOut} alone, and a CDEvent of that rollout
 * coming late changes nothing.
 */
@QuarkusTest
@QuarkusTestResource(value = RekonTestResource.class, restrictToAnnotatedClass = false)
class ImagePromotionStageWatchTest {

    static final String NS = "promo-sw";
    static final String B1 = "registry.local/promo-sw/hello@sha256:" + "6".repeat(64);
    static final String B2 = "registry.local/promo-sw/hello@sha256:" + "7".repeat(64);

    static StageClusters clusters;
    static StageApiServer staging;
    static StageApiServer prod;

    @BeforeAll
    static void clusters() {
        clusters = StageClusters.in(NS);
        staging = clusters.stageWithSecret("staging");
        prod = clusters.stageWithSecret("prod");
        clusters.promotion(PromotionFixtures.localStage("dev", null),
                PromotionFixtures.stage("staging", "staging-kubeconfig", NS, "staging"),
                PromotionFixtures.stage("prod", "prod-kubeconfig", NS, "prod"));
    }

    @AfterAll
    static void stop() {
        clusters.close();
    }

    @Test
    void aStagesRolloutPromotesTheBuildFromItsClustersWatchWithNoEvent() {
        inStaging(B1, 1);
        clusters.stageRollsOut(staging);
        saysRolledOut(staging);
        clusters.reconcile().statusCode(200);
        Await.until("prod's PromotedImage carries " + B1, () -> B1.equals(clusters.promotedIn(prod)));

        inStaging(B2, 2);
        clusters.stageRollsOut(staging);
        assertEquals(B1, clusters.promotedIn(prod), "a rollout under way settles nothing");
        saysRolledOut(staging);
        Await.until("prod's PromotedImage carries " + B2 + " with no event", () -> B2.equals(
                clusters.promotedIn(prod)));
        Await.until("the status says staging proved " + B2, () -> B2.equals(clusters.stageStatus("staging")
                .path("lastProven").asText()));
        Events.binary("dev.cdevents.service.deployed.0.3.0", Map.of(), """
                {"subject": {"id": "%s/hello", "content": {"environment": {"id": "staging"},
                 "artifactId": "pkg:oci/hello@sha256%%3A%s?repository_url=registry.local/promo-sw/hello"}}}
                """.formatted(NS, "7".repeat(64))).statusCode(200).body("outcome", equalTo("unchanged"));
        assertEquals(B2, clusters.promotedIn(prod));
    }

    /** The kpack build enters dev, rolls out there and is promoted to staging (by the rollout's own write). */
    private static void inStaging(String image, long build) {
        event("Image", NS, "hello", Kpack.built(clusters.dev(), NS, "hello", image, build)).body("outcome", equalTo("applied"));
        rolledOut(NS);
        Await.until("staging's PromotedImage carries " + image, () -> image.equals(clusters.promotedIn(staging)));
    }

    /** Staging's Rekon saw its Deployment roll out: the ImageDeploy says {@code RolledOut=True}. */
    private static void saysRolledOut(StageApiServer stage) {
        KubernetesClient k = stage.adminClient();
        GenericKubernetesResource idp = k.genericKubernetesResources(Kpack.IMAGE_DEPLOYS).inNamespace(NS)
                .withName("hello").get();
        @SuppressWarnings("unchecked")
        Map<String, Object> status = new java.util.LinkedHashMap<>((Map<String, Object>) idp.getAdditionalProperties()
                .get("status"));
        List<Object> conditions = new java.util.ArrayList<>((List<?>) status.get("conditions"));
        conditions.add(Map.of("type", "RolledOut", "status", "True", "reason", "RolloutComplete",
                "lastTransitionTime", Instant.now().minusSeconds(1).toString()));
        status.put("conditions", conditions);
        idp.setAdditionalProperty("status", status);
        k.genericKubernetesResources(Kpack.IMAGE_DEPLOYS).inNamespace(NS).resource(idp).updateStatus();
    }
}
