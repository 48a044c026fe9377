package dev.rekon.promotions.e2e;

import static dev.rekon.promotions.e2e.ImagePromotionEndToEndTest.PROMOTED;
import static dev.rekon.promotions.e2e.ImagePromotionEndToEndTest.PROMOTIONS;
import static dev.rekon.promotions.e2e.ImagePromotionEndToEndTest.event;
import static dev.rekon.promotions.e2e.ImagePromotionEndToEndTest.rolledOut;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.rekon.testing.Events;
import dev.rekon.testing.Kpack;
import dev.rekon.testing.RekonTestResource;
import dev.rekon.testing.StageApiServer;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.ValidatableResponse;

/**
 * Three clusters, one apiserver each: dev is the cluster Rekon runs in; staging and prod are apiservers of their
 * own, reached only through kubeconfig Secrets in the ImagePromotion's namespace. The test plays each stage
 * cluster's Rekon (its rollout writes the ImageDeploy's status from the PromotedImage) and its Deployment
 * controller. A build reaches prod through staging and an approval; a wrong approval writes nothing anywhere.
 */
@QuarkusTest
@QuarkusTestResource(value = RekonTestResource.class, restrictToAnnotatedClass = false)
class ImagePromotionStageClustersTest {

    static final String NS = "promo4";
    static final String B1 = "registry.local/promo4/hello@sha256:" + "4".repeat(64);

    static StageClusters clusters;
    static KubernetesClient dev;
    static StageApiServer staging;
    static StageApiServer prod;

    @BeforeAll
    static void clusters() {
        clusters = StageClusters.in(NS);
        dev = clusters.dev();
        staging = clusters.stageWithSecret("staging");
        prod = clusters.stageWithSecret("prod");
    }

    @AfterAll
    static void stop() {
        clusters.close();
    }

    @Test
    void aBuildReachesProdInItsOwnClusterThroughStagingInAnother() {
        event("Image", NS, "hello", Kpack.built(dev, NS, "hello", B1, 1)).body("outcome", equalTo("applied"));
        rolledOut(NS);
        dev.genericKubernetesResources(PROMOTIONS).inNamespace(NS).resource(Serialization.unmarshal("""
                {"apiVersion": "rekon.dev/v1alpha1", "kind": "ImagePromotion",
                 "metadata": {"name": "hello", "namespace": "%s"},
                 "spec": {"source": {"image": "hello"}, "stages": [
                   {"name": "dev", "imageDeploys": ["hello"]},
                   {"name": "staging", "cluster": {"secretRef": {"name": "staging-kubeconfig"}}, "namespace": "%s",
                    "promotedImage": "hello", "imageDeploys": ["hello"]},
                   {"name": "prod", "cluster": {"secretRef": {"name": "prod-kubeconfig"}}, "namespace": "%s",
                    "promotedImage": "hello", "imageDeploys": ["hello"], "approval": "Manual"}]}}
                """.formatted(NS, NS, NS), GenericKubernetesResource.class)).createOr(r -> r.update());
        clusters.reconcile().statusCode(200).body("reason", equalTo("Promoted"));
        assertEquals(B1, clusters.promotedIn(staging));
        assertNull(dev.genericKubernetesResources(PROMOTED).inNamespace(NS).withName("hello").get(),
                "written in staging's cluster, not in this one");

        clusters.stageRollsOut(staging);
        clusters.reconcile().statusCode(200).body("outcome", equalTo("applied"));
        assertNull(clusters.promotedIn(prod), "prod waits for its approval");
        clusters.approve("prod", "registry.local/promo4/hello@sha256:" + "5".repeat(64))
                .body("reason", equalTo("ApprovalMismatch")).body("message", containsString(B1));
        assertNull(clusters.promotedIn(prod));
        clusters.approve("prod", B1).body("reason", equalTo("Promoted"));
        assertEquals(B1, clusters.promotedIn(prod));
        clusters.stageRollsOut(prod);
        cdevent("{\"subject\": {\"id\": \"" + NS + "/hello\", \"content\": {\"environment\": {\"id\": \"prod\"}}}}")
                .statusCode(200).body("outcome", equalTo("applied"));
        clusters.reconcile().statusCode(200).body("outcome", equalTo("unchanged"));
        cdevent("{\"subject\": {\"id\": \"hello\"}}").statusCode(400);
    }

    /** What a stage's CDEvents producer sends when a rollout completes: a trigger, the stage is read again. */
    static ValidatableResponse cdevent(String data) {
        return Events.binary("dev.cdevents.service.deployed.0.3.0", Map.of(), data);
    }
}
