package dev.rekon.promotions.e2e;

import static dev.rekon.promotions.e2e.ImagePromotionEndToEndTest.event;
import static dev.rekon.promotions.e2e.ImagePromotionEndToEndTest.rolledOut;
import static dev.rekon.testing.PromotionFixtures.localStage;
import static dev.rekon.testing.PromotionFixtures.stage;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.rekon.testing.Await;
import dev.rekon.testing.Kpack;
import dev.rekon.testing.RekonTestResource;
import dev.rekon.testing.StageApiServer;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * A stage's kubeconfig Secret rotated to another cluster between two builds: the next promotion reads and writes
 * only the cluster the Secret names now, although the stage was last reached, and is read ahead, with the client of
 * the old one.
 */
@QuarkusTest
@QuarkusTestResource(value = RekonTestResource.class, restrictToAnnotatedClass = false)
class ImagePromotionRotatedKubeconfigTest {

    static final String NS = "promo-rotated";
    static final String B1 = "registry.local/promo-rotated/hello@sha256:" + "1".repeat(64);
    static final String B2 = "registry.local/promo-rotated/hello@sha256:" + "2".repeat(64);

    static StageClusters clusters;
    static KubernetesClient dev;
    static StageApiServer before;
    static StageApiServer after;

    @BeforeAll
    static void clusters() {
        clusters = StageClusters.in(NS);
        dev = clusters.dev();
        before = clusters.stage("rotated-before");
        after = clusters.stage("rotated-after");
    }

    @AfterAll
    static void stop() {
        clusters.close();
    }

    static void secret(String kubeconfig) {
        clusters.kubeconfigSecret("stage-kubeconfig", kubeconfig);
    }

    static String promotedIn(StageApiServer stage) {
        return clusters.promotedIn(stage);
    }

    @Test
    void theNextPromotionGoesOnlyWhereTheSecretNowPoints() {
        secret(before.kubeconfig());
        event("Image", NS, "hello", Kpack.built(dev, NS, "hello", B1, 1)).body("outcome", equalTo("applied"));
        rolledOut(NS);
        clusters.promotion(localStage("dev", null), stage("staging", "stage-kubeconfig", NS));
        clusters.reconcile().statusCode(200).body("reason", equalTo("Promoted"));
        assertEquals(B1, promotedIn(before));

        secret(after.kubeconfig());
        event("Image", NS, "hello", Kpack.built(dev, NS, "hello", B2, 2)).body("outcome", equalTo("applied"));
        rolledOut(NS);
        // A trigger of its own (the ImageDeploy's watch) may promote first; the reconcile then changes nothing.
        clusters.reconcile().statusCode(200);
        Await.until("B2 promoted to the cluster the Secret names now", () -> B2.equals(
                promotedIn(after)));
        assertEquals(B1, promotedIn(before), "nothing written to the cluster it named before");
    }
}
