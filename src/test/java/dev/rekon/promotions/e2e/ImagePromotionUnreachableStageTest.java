package dev.rekon.promotions.e2e;

import static dev.rekon.promotions.e2e.ImagePromotionEndToEndTest.PROMOTED;
import static dev.rekon.promotions.e2e.ImagePromotionEndToEndTest.PROMOTIONS;
import static dev.rekon.promotions.e2e.ImagePromotionEndToEndTest.event;
import static dev.rekon.promotions.e2e.ImagePromotionEndToEndTest.rolledOut;
import static dev.rekon.testing.PromotionFixtures.localStage;
import static dev.rekon.testing.PromotionFixtures.stage;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.rekon.testing.Kpack;
import dev.rekon.testing.LocalCluster;
import dev.rekon.testing.LocalRegistry;
import dev.rekon.testing.RekonTestResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.ValidatableResponse;

/**
 * A stage whose apiserver does not answer is a 503 (Knative redelivers), and nothing is written anywhere; a kubeconfig
 * that is not one is refused with its reason and never shown; once the stage answers, the same event promotes.
 */
@QuarkusTest
@QuarkusTestResource(value = RekonTestResource.class, restrictToAnnotatedClass = false)
class ImagePromotionUnreachableStageTest {

    static final String DEV = "promo3-dev";
    static final String STAGING = "promo3-staging";
    static final String B1 = "registry.local/promo3/hello@sha256:" + "1".repeat(64);
    static final String SECRET_TEXT = "not-a-kubeconfig-but-a-secret-value";

    static StageClusters clusters;
    static KubernetesClient k8s;

    /** Staging is a namespace of this cluster, reached through whatever kubeconfig the test puts in the Secret. */
    @BeforeAll
    static void stages() {
        clusters = StageClusters.in(DEV);
        k8s = clusters.dev();
        clusters.namespaceStage(STAGING);
    }

    static void kubeconfig(String text) {
        clusters.kubeconfigSecret("staging-kubeconfig", text);
    }

    static ValidatableResponse reconcile() {
        return clusters.reconcile();
    }

    @Test
    void anUnreachableStageIsA503UntilItAnswers() {
        String real = LocalCluster.get().kubeconfigYaml();
        int port = java.net.URI.create(LocalCluster.get().apiServerUrl()).getPort();
        kubeconfig(real.replace(":" + port, ":" + LocalRegistry.freePort()));
        event("Image", DEV, "hello", Kpack.built(k8s, DEV, "hello", B1, 1)).body("outcome", equalTo("applied"));
        rolledOut(DEV);
        clusters.promotion(localStage("dev", null), stage("staging", "staging-kubeconfig", STAGING));

        reconcile().statusCode(503);
        assertNull(k8s.genericKubernetesResources(PROMOTED).inNamespace(STAGING).withName("hello").get());
        assertNull(k8s.genericKubernetesResources(PROMOTIONS).inNamespace(DEV).withName("hello").get()
                .getAdditionalProperties().get("status"), "nothing is written while a stage cannot be read");

        kubeconfig(SECRET_TEXT);
        reconcile().statusCode(200).body("outcome", equalTo("rejected")).body("reason", equalTo("KubeconfigInvalid"))
                .body("message", not(containsString(SECRET_TEXT)));

        kubeconfig(real);
        reconcile().statusCode(200).body("outcome", equalTo("applied")).body("reason", equalTo("Promoted"));
    }
}
