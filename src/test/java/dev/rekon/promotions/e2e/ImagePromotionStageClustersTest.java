package dev.rekon.promotions.e2e;

import static dev.rekon.promotions.e2e.ImagePromotionEndToEndTest.PROMOTED;
import static dev.rekon.promotions.e2e.ImagePromotionEndToEndTest.PROMOTIONS;
import static dev.rekon.promotions.e2e.ImagePromotionEndToEndTest.event;
import static dev.rekon.promotions.e2e.ImagePromotionEndToEndTest.rolledOut;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.rekon.testing.Events;
import dev.rekon.testing.Kpack;
import dev.rekon.testing.LocalCluster;
import dev.rekon.testing.RekonTestResource;
import dev.rekon.testing.StageApiServer;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentStatus;
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

    static KubernetesClient dev;
    static StageApiServer staging;
    static StageApiServer prod;

    @BeforeAll
    static void clusters() {
        dev = LocalCluster.get().adminClient();
        ImagePromotionEndToEndTest.k8s = dev;
        Path dir = Path.of("target", "stage-apiservers");
        staging = StageApiServer.start("staging", dir);
        prod = StageApiServer.start("prod", dir);
        Kpack.namespace(dev, NS);
        ImagePromotionEndToEndTest.imageDeploy(NS, null);
        for (StageApiServer stage : List.of(staging, prod)) {
            stageImageDeploy(stage, NS);
        }
        secret("staging-kubeconfig", staging.kubeconfig());
        secret("prod-kubeconfig", prod.kubeconfig());
    }

    /** The namespace in a stage cluster and its ImageDeploy {@code hello}, following the PromotedImage. */
    static void stageImageDeploy(StageApiServer stage, String ns) {
        Kpack.namespace(stage.adminClient(), ns);
        stage.adminClient().genericKubernetesResources(Kpack.IMAGE_DEPLOYS).inNamespace(ns).resource(
                Serialization.unmarshal("""
                        {"apiVersion": "rekon.dev/v1alpha1", "kind": "ImageDeploy",
                         "metadata": {"name": "hello", "namespace": "%s"},
                         "spec": {"refKind": "PromotedImage", "deployment": {"spec": {"template": {"spec": {
                           "containers": [{"name": "web", "image": "REF=hello"}]}}}}}}
                        """.formatted(ns), GenericKubernetesResource.class)).create();
    }

    @AfterAll
    static void stop() {
        staging.close();
        prod.close();
    }

    static void secret(String name, String kubeconfig) {
        dev.secrets().inNamespace(NS).resource(new SecretBuilder().withNewMetadata().withName(name).endMetadata()
                .addToStringData("kubeconfig", kubeconfig).build()).createOr(s -> s.update());
    }

    /**
     * The stage cluster's Rekon and Deployment controller: the ImageDeploy runs what the PromotedImage says, Ready,
     * and its Deployment has rolled out.
     */
    static void stageRollsOut(StageApiServer stage) {
        stageRollsOut(stage, NS);
    }

    /** The same in namespace {@code ns} of the stage. */
    static void stageRollsOut(StageApiServer stage, String ns) {
        KubernetesClient k = stage.adminClient();
        GenericKubernetesResource promoted = k.genericKubernetesResources(PROMOTED).inNamespace(ns).withName("hello")
                .get();
        String image = String.valueOf(((Map<?, ?>) promoted.getAdditionalProperties().get("status")).get("latestImage"));
        String now = Instant.now().minusSeconds(1).toString();
        GenericKubernetesResource idp = k.genericKubernetesResources(Kpack.IMAGE_DEPLOYS).inNamespace(ns)
                .withName("hello").get();
        idp.setAdditionalProperty("status", Map.of("deployment", "hello", "images", List.of(Map.of("name", "hello",
                "image", image)), "conditions", List.of(Map.of("type", "Ready", "status", "True", "reason", "Applied",
                        "lastTransitionTime", now))));
        k.genericKubernetesResources(Kpack.IMAGE_DEPLOYS).inNamespace(ns).resource(idp).updateStatus();
        Deployment d = Serialization.unmarshal("""
                {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "hello", "namespace": "%s"},
                 "spec": {"selector": {"matchLabels": {"app": "hello"}}, "template": {"metadata": {"labels":
                   {"app": "hello"}}, "spec": {"containers": [{"name": "web", "image": "%s"}]}}}}
                """.formatted(ns, image), Deployment.class);
        k.apps().deployments().inNamespace(ns).resource(d).createOr(x -> x.update());
        k.apps().deployments().inNamespace(ns).withName("hello").editStatus(x -> {
            x.setStatus(Serialization.unmarshal("""
                    {"observedGeneration": %d, "replicas": 1, "updatedReplicas": 1, "readyReplicas": 1,
                     "availableReplicas": 1, "conditions": [
                       {"type": "Available", "status": "True", "lastTransitionTime": "%s", "lastUpdateTime": "%s"},
                       {"type": "Progressing", "status": "True", "reason": "NewReplicaSetAvailable",
                        "lastTransitionTime": "%s", "lastUpdateTime": "%s"}]}
                    """.formatted(x.getMetadata().getGeneration(), now, now, now, now), DeploymentStatus.class));
            return x;
        });
    }

    static ValidatableResponse reconcile() {
        return Events.binary("dev.rekon.promotion.reconcile", Map.of(), "{\"namespace\": \"" + NS
                + "\", \"name\": \"hello\"}").statusCode(200);
    }

    static ValidatableResponse approve(String image) {
        return Events.binary("dev.rekon.promotion.approve", Map.of(), """
                {"namespace": "%s", "name": "hello", "stage": "prod", "image": "%s"}""".formatted(NS, image))
                .statusCode(200);
    }

    static String promotedIn(StageApiServer stage) {
        return promotedIn(stage, NS);
    }

    /** The image the stage's PromotedImage {@code hello} in {@code ns} carries, or null when there is none. */
    static String promotedIn(StageApiServer stage, String ns) {
        GenericKubernetesResource r = stage.adminClient().genericKubernetesResources(PROMOTED).inNamespace(ns)
                .withName("hello").get();
        return r == null ? null : String.valueOf(((Map<?, ?>) r.getAdditionalProperties().get("status"))
                .get("latestImage"));
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
        reconcile().body("reason", equalTo("Promoted"));
        assertEquals(B1, promotedIn(staging));
        assertNull(dev.genericKubernetesResources(PROMOTED).inNamespace(NS).withName("hello").get(),
                "written in staging's cluster, not in this one");

        stageRollsOut(staging);
        reconcile().body("outcome", equalTo("applied"));
        assertNull(promotedIn(prod), "prod waits for its approval");
        approve("registry.local/promo4/hello@sha256:" + "5".repeat(64)).body("reason", equalTo("ApprovalMismatch"))
                .body("message", containsString(B1));
        assertNull(promotedIn(prod));
        approve(B1).body("reason", equalTo("Promoted"));
        assertEquals(B1, promotedIn(prod));
        stageRollsOut(prod);
        cdevent("{\"subject\": {\"id\": \"" + NS + "/hello\", \"content\": {\"environment\": {\"id\": \"prod\"}}}}")
                .statusCode(200).body("outcome", equalTo("applied"));
        reconcile().body("outcome", equalTo("unchanged"));
        cdevent("{\"subject\": {\"id\": \"hello\"}}").statusCode(400);
    }

    /** What a stage's CDEvents producer sends when a rollout completes: a trigger, the stage is read again. */
    static ValidatableResponse cdevent(String data) {
        return Events.binary("dev.cdevents.service.deployed.0.3.0", Map.of(), data);
    }
}
