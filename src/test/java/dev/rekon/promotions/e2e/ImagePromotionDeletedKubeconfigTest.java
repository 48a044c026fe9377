package dev.rekon.promotions.e2e;

import static dev.rekon.promotions.e2e.ImagePromotionEndToEndTest.PROMOTIONS;
import static dev.rekon.promotions.e2e.ImagePromotionEndToEndTest.event;
import static dev.rekon.promotions.e2e.ImagePromotionEndToEndTest.rolledOut;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.rekon.testing.Await;
import dev.rekon.testing.Events;
import dev.rekon.testing.Kpack;
import dev.rekon.testing.LocalCluster;
import dev.rekon.testing.RekonTestResource;
import dev.rekon.testing.StageApiServer;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * A stage's kubeconfig Secret deleted after a promotion reached the stage: the triggers that follow (a build, its
 * rollout here) plan without reading every Secret, yet the first that may write the stage reads it, fails the stage
 * with {@code KubeconfigSecretNotFound} and writes nothing there, and so does every plan after it.
 */
@QuarkusTest
@QuarkusTestResource(value = RekonTestResource.class, restrictToAnnotatedClass = false)
class ImagePromotionDeletedKubeconfigTest {

    static final String NS = "promo-deleted";
    static final String B1 = "registry.local/promo-deleted/hello@sha256:" + "1".repeat(64);
    static final String B2 = "registry.local/promo-deleted/hello@sha256:" + "2".repeat(64);

    static KubernetesClient dev;
    static StageApiServer stage;

    @BeforeAll
    static void clusters() {
        dev = LocalCluster.get().adminClient();
        ImagePromotionEndToEndTest.k8s = dev;
        stage = StageApiServer.start("deleted-kubeconfig", Path.of("target", "stage-apiservers"));
        Kpack.namespace(dev, NS);
        ImagePromotionEndToEndTest.imageDeploy(NS, null);
        ImagePromotionStageClustersTest.stageImageDeploy(stage, NS);
    }

    @AfterAll
    static void stop() {
        stage.close();
    }

    static String ready() {
        GenericKubernetesResource p = dev.genericKubernetesResources(PROMOTIONS).inNamespace(NS).withName("hello").get();
        Object status = p.getAdditionalProperties().get("status");
        if (!(status instanceof Map<?, ?> s) || !(s.get("conditions") instanceof List<?> conditions)) {
            return null;
        }
        return conditions.stream().filter(c -> c instanceof Map<?, ?> m && "Ready".equals(m.get("type")))
                .map(c -> ((Map<?, ?>) c).get("status") + "/" + ((Map<?, ?>) c).get("reason")).findFirst().orElse(null);
    }

    @Test
    void theFirstTriggerThatMayWriteTheStageFailsItAndWritesNothingThere() {
        dev.secrets().inNamespace(NS).resource(new SecretBuilder().withNewMetadata().withName("stage-kubeconfig")
                .endMetadata().addToStringData("kubeconfig", stage.kubeconfig()).build()).createOr(s -> s.update());
        event("Image", NS, "hello", Kpack.built(dev, NS, "hello", B1, 1)).body("outcome", equalTo("applied"));
        rolledOut(NS);
        dev.genericKubernetesResources(PROMOTIONS).inNamespace(NS).resource(Serialization.unmarshal("""
                {"apiVersion": "rekon.dev/v1alpha1", "kind": "ImagePromotion",
                 "metadata": {"name": "hello", "namespace": "%s"},
                 "spec": {"source": {"image": "hello"}, "stages": [
                   {"name": "dev", "imageDeploys": ["hello"]},
                   {"name": "staging", "cluster": {"secretRef": {"name": "stage-kubeconfig"}, "environment": "staging"},
                    "namespace": "%s", "promotedImage": "hello", "imageDeploys": ["hello"]}]}}
                """.formatted(NS, NS), GenericKubernetesResource.class)).createOr(r -> r.update());
        Events.binary("dev.rekon.promotion.reconcile", Map.of(), "{\"namespace\": \"" + NS + "\", \"name\": \"hello\"}")
                .statusCode(200).body("reason", equalTo("Promoted"));
        assertEquals(B1, ImagePromotionStageClustersTest.promotedIn(stage, NS));

        dev.secrets().inNamespace(NS).withName("stage-kubeconfig").delete();
        event("Image", NS, "hello", Kpack.built(dev, NS, "hello", B2, 2)).body("outcome", equalTo("applied"));
        rolledOut(NS);
        // B2 proven in dev: the rollout's own trigger may write staging, so it reads staging's Secret.
        Await.until("the stage failed by its deleted Secret", () -> "False/KubeconfigSecretNotFound".equals(ready()));
        Events.binary("dev.rekon.promotion.reconcile", Map.of(), "{\"namespace\": \"" + NS + "\", \"name\": \"hello\"}")
                .statusCode(200).body("reason", equalTo("KubeconfigSecretNotFound"));
        assertEquals(B1, ImagePromotionStageClustersTest.promotedIn(stage, NS), "nothing written to the stage");
    }
}
