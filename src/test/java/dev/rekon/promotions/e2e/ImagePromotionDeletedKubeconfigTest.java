package dev.rekon.promotions.e2e;

import static dev.rekon.promotions.e2e.ImagePromotionEndToEndTest.PROMOTIONS;
import static dev.rekon.promotions.e2e.ImagePromotionEndToEndTest.event;
import static dev.rekon.promotions.e2e.ImagePromotionEndToEndTest.rolledOut;
import static dev.rekon.testing.PromotionFixtures.localStage;
import static dev.rekon.testing.PromotionFixtures.stage;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.rekon.testing.Await;
import dev.rekon.testing.Kpack;
import dev.rekon.testing.RekonTestResource;
import dev.rekon.testing.StageApiServer;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
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

    static StageClusters clusters;
    static KubernetesClient dev;
    static StageApiServer stage;

    @BeforeAll
    static void clusters() {
        clusters = StageClusters.in(NS);
        dev = clusters.dev();
        stage = clusters.stage("deleted-kubeconfig");
    }

    @AfterAll
    static void stop() {
        clusters.close();
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
        clusters.kubeconfigSecret("stage-kubeconfig", stage.kubeconfig());
        event("Image", NS, "hello", Kpack.built(dev, NS, "hello", B1, 1)).body("outcome", equalTo("applied"));
        rolledOut(NS);
        clusters.promotion(localStage("dev", null), stage("staging", "stage-kubeconfig", NS, "staging"));
        clusters.reconcile().statusCode(200).body("reason", equalTo("Promoted"));
        assertEquals(B1, clusters.promotedIn(stage));

        dev.secrets().inNamespace(NS).withName("stage-kubeconfig").delete();
        event("Image", NS, "hello", Kpack.built(dev, NS, "hello", B2, 2)).body("outcome", equalTo("applied"));
        rolledOut(NS);
        // B2 proven in dev: the rollout's own trigger may write staging, so it reads staging's Secret.
        Await.until("the stage failed by its deleted Secret", () -> "False/KubeconfigSecretNotFound".equals(ready()));
        clusters.reconcile().statusCode(200).body("reason", equalTo("KubeconfigSecretNotFound"));
        assertEquals(B1, clusters.promotedIn(stage), "nothing written to the stage");
    }
}
