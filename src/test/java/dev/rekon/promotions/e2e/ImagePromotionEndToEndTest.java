package dev.rekon.promotions.e2e;

import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.rekon.testing.Events;
import dev.rekon.testing.Kpack;
import dev.rekon.testing.LocalCluster;
import dev.rekon.testing.RekonTestResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.ValidatableResponse;

/**
 * A kpack build goes through three stages on the real apiserver, the test acting as the Deployment controller:
 * dev (the ImageDeploy follows the kpack Image), staging (reached through a kubeconfig Secret, its ImageDeploy
 * following the PromotedImage Rekon writes there) and prod (Manual: a wrong approval is rejected naming the digest
 * that waits, the right one lets it in, the same one again changes nothing).
 */
@QuarkusTest
@QuarkusTestResource(value = RekonTestResource.class, restrictToAnnotatedClass = false)
class ImagePromotionEndToEndTest {

    static final String UPDATE = "dev.knative.apiserver.resource.update";
    static final String DEV = "promo-dev";
    static final String STAGING = "promo-staging";
    static final String PROD = "promo-prod";
    static final String B1 = "registry.local/promo/hello@sha256:" + "1".repeat(64);
    static final ObjectMapper JSON = new ObjectMapper();
    static final ResourceDefinitionContext PROMOTIONS = context("imagepromotions", "ImagePromotion");
    static final ResourceDefinitionContext PROMOTED = context("promotedimages", "PromotedImage");

    static KubernetesClient k8s;

    static ResourceDefinitionContext context(String plural, String kind) {
        return new ResourceDefinitionContext.Builder().withGroup("rekon.dev").withVersion("v1alpha1")
                .withPlural(plural).withKind(kind).withNamespaced(true).build();
    }

    @BeforeAll
    static void stages() {
        StageClusters clusters = StageClusters.in(DEV);
        clusters.namespaceStage(STAGING);
        clusters.namespaceStage(PROD);
        // Staging is reached through a kubeconfig Secret, although it is this same cluster.
        clusters.kubeconfigSecret("staging-kubeconfig", LocalCluster.get().kubeconfigYaml());
    }

    static void imageDeploy(String ns, String refKind) {
        dev.rekon.testing.PromotionFixtures.imageDeploy(k8s, ns, refKind);
    }

    static GenericKubernetesResource promotion() {
        return Serialization.unmarshal("""
                {"apiVersion": "rekon.dev/v1alpha1", "kind": "ImagePromotion",
                 "metadata": {"name": "hello", "namespace": "%s"},
                 "spec": {"source": {"image": "hello"}, "stages": [
                   {"name": "dev", "imageDeploys": ["hello"]},
                   {"name": "staging", "cluster": {"secretRef": {"name": "staging-kubeconfig"}}, "namespace": "%s",
                    "promotedImage": "hello", "imageDeploys": ["hello"], "soak": "0s"},
                   {"name": "prod", "namespace": "%s", "promotedImage": "hello", "imageDeploys": ["hello"],
                    "approval": "Manual"}]}}
                """.formatted(DEV, STAGING, PROD), GenericKubernetesResource.class);
    }

    /**
     * The test as the Deployment controller: the ImageDeploy's Deployment has rolled out, every replica available.
     * Returns once this Rekon's rollouts, following the Deployment's watch, report it as the ImageDeploy's
     * {@code RolledOut}, which is what a promotion judges.
     */
    static void rolledOut(String ns) {
        deploymentRolledOut(ns);
        saysRolledOut(ns, "True", "RolloutComplete");
    }

    /** Waits until the stage's ImageDeploy says {@code RolledOut} with this status and reason. */
    static void saysRolledOut(String ns, String status, String reason) {
        dev.rekon.testing.Await.until("ImageDeploy " + ns + "/hello says RolledOut=" + status + "/" + reason, () -> {
            JsonNode idp = JSON.valueToTree(k8s.genericKubernetesResources("rekon.dev/v1alpha1", "ImageDeploy")
                    .inNamespace(ns).withName("hello").get());
            for (JsonNode c : idp.path("status").path("conditions")) {
                if ("RolledOut".equals(c.path("type").asText())) {
                    return status.equals(c.path("status").asText()) && reason.equals(c.path("reason").asText());
                }
            }
            return false;
        });
    }

    /** The Deployment's status as its controller writes it once every replica is updated and available. */
    static void deploymentRolledOut(String ns) {
        dev.rekon.testing.PromotionFixtures.deploymentRolledOut(k8s, ns);
    }

    /**
     * Waits until the stage's ImageDeploy reports {@code image} in its status: after a rollout its status is written
     * by the status pass that follows the reply, and a promotion judges the stage by that status.
     */
    static void reports(String ns, String image) {
        dev.rekon.testing.Await.until("ImageDeploy " + ns + "/hello reports " + image, () -> {
            var idp = k8s.genericKubernetesResources("rekon.dev/v1alpha1", "ImageDeploy").inNamespace(ns)
                    .withName("hello").get();
            Object images = idp == null || idp.getAdditionalProperties().get("status") == null ? null
                    : ((java.util.Map<?, ?>) idp.getAdditionalProperties().get("status")).get("images");
            return images instanceof java.util.List<?> l && l.stream().anyMatch(
                    i -> i instanceof java.util.Map<?, ?> m && image.equals(m.get("image")));
        });
    }

    static ValidatableResponse event(String kind, String ns, String name, Object object) {
        return Events.binary(UPDATE, Events.apiServerExtensions(kind.equals("Image") ? "kpack.io/v1alpha2"
                : "rekon.dev/v1alpha1", kind, ns, name), Kpack.json(object)).statusCode(200);
    }

    static ValidatableResponse approve(String image) {
        return Events.binary("dev.rekon.promotion.approve", Map.of(), """
                {"namespace": "%s", "name": "hello", "stage": "prod", "image": "%s"}""".formatted(DEV, image))
                .statusCode(200);
    }

    static JsonNode promoted(String ns) {
        GenericKubernetesResource r = k8s.genericKubernetesResources(PROMOTED).inNamespace(ns).withName("hello").get();
        return r == null ? null : JSON.valueToTree(r);
    }

    static JsonNode stage(String name) {
        JsonNode p = JSON.valueToTree(k8s.genericKubernetesResources(PROMOTIONS).inNamespace(DEV).withName("hello").get());
        for (JsonNode s : p.path("status").path("stages")) {
            if (name.equals(s.path("name").asText())) {
                return s;
            }
        }
        return null;
    }

    @Test
    void aBuildReachesProdThroughStagingAndAnApproval() {
        GenericKubernetesResource image = Kpack.built(k8s, DEV, "hello", B1, 1);
        event("Image", DEV, "hello", image).body("outcome", equalTo("applied"));
        rolledOut(DEV);
        GenericKubernetesResource p = k8s.genericKubernetesResources(PROMOTIONS).inNamespace(DEV).resource(promotion())
                .createOr(r -> r.update());
        event("ImagePromotion", DEV, "hello", p).body("outcome", equalTo("applied")).body("reason", equalTo("Promoted"));
        JsonNode staged = promoted(STAGING);
        assertNotNull(staged, "the PromotedImage is created in staging");
        assertEquals(B1, staged.path("status").path("latestImage").asText());
        assertEquals("rekon", staged.path("metadata").path("labels").path("app.kubernetes.io/managed-by").asText());
        assertEquals("Proven", stage("dev").path("phase").asText());

        event("PromotedImage", STAGING, "hello", k8s.genericKubernetesResources(PROMOTED).inNamespace(STAGING)
                .withName("hello").get()).body("outcome", equalTo("applied"));
        rolledOut(STAGING);
        Events.binary("dev.rekon.promotion.reconcile", Map.of(), "{\"namespace\": \"" + DEV + "\", \"name\": \"hello\"}")
                .statusCode(200).body("outcome", equalTo("applied"));
        assertEquals("Proven", stage("staging").path("phase").asText());
        assertEquals("WaitingForApproval", stage("prod").path("phase").asText());
        assertNull(promoted(PROD), "nothing enters prod before its approval");

        String other = "registry.local/promo/hello@sha256:" + "9".repeat(64);
        approve(other).body("outcome", equalTo("rejected")).body("reason", equalTo("ApprovalMismatch"))
                .body("message", containsString(B1));
        assertNull(promoted(PROD), "a wrong approval writes nothing");
        approve("sha256:" + "1".repeat(64)).body("outcome", equalTo("applied")).body("reason", equalTo("Promoted"));
        assertEquals(B1, promoted(PROD).path("status").path("latestImage").asText());
        approve(B1).body("outcome", equalTo("unchanged")).body("reason", equalTo("AlreadyApproved"));
    }
}
