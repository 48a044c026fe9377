package dev.rekon.promotions.e2e;

import static dev.rekon.promotions.e2e.ImagePromotionEndToEndTest.PROMOTED;
import static dev.rekon.promotions.e2e.ImagePromotionEndToEndTest.event;
import static dev.rekon.promotions.e2e.ImagePromotionEndToEndTest.rolledOut;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import dev.rekon.bench.App;
import dev.rekon.bench.Poster;
import dev.rekon.testing.Await;
import dev.rekon.testing.Events;
import dev.rekon.testing.Kpack;
import dev.rekon.testing.ProjectCopy;
import dev.rekon.testing.PromotionFixtures;
import dev.rekon.testing.RekonTestResource;
import dev.rekon.testing.SharedFiles;
import dev.rekon.testing.StageApiServer;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * One Rekon per cluster, as deployed: this application promotes from dev (its own cluster); staging is an apiserver
 * of its own, with a Rekon of its own (the packaged application, started as a process against staging's apiserver,
 * its CDEvents sink set to this application). The promoting Rekon writes staging's PromotedImage through the
 * kubeconfig Secret; staging's Rekon rolls it out on the PromotedImage's event (the test as staging's
 * ApiServerSource); when staging's Deployment has rolled out (the test as its Deployment controller), staging's
 * Rekon sends the CDEvent, and that alone makes the promoting Rekon find staging proven.
 */
@QuarkusTest
@QuarkusTestResource(value = RekonTestResource.class, restrictToAnnotatedClass = false)
class ImagePromotionRekonPerClusterTest {

    static final String NS = "promo-own";
    static final String B1 = "registry.local/promo-own/hello@sha256:" + "7".repeat(64);

    static StageClusters clusters;
    static KubernetesClient dev;
    static StageApiServer staging;
    static App stagingRekon;

    @BeforeAll
    static void clusters() throws Exception {
        clusters = StageClusters.in(NS);
        dev = clusters.dev();
        Path dir = SharedFiles.projectDir().resolve("target/rekon-per-cluster");
        Files.createDirectories(dir);
        staging = clusters.deployableStage("staging-own", dir);
        clusters.kubeconfigSecret("staging-kubeconfig", staging.kubeconfig());
        // Staging's own Rekon: the packaged application against staging's apiserver, its CDEvents sent here.
        Path kubeconfig = dir.resolve("staging-kubeconfig.yaml");
        Files.writeString(kubeconfig, staging.kubeconfig());
        stagingRekon = App.start(SharedFiles.projectDir(), ProjectCopy.packagedApp(), Map.of(), kubeconfig,
                dir.resolve("rekon-staging.log"), "rekon.resync.on-start=false",
                "rekon.cdevents.sink=http://127.0.0.1:" + RekonTestResource.port() + "/",
                "rekon.cdevents.environment=staging");
        Poster poster = new Poster(stagingRekon.port());
        Await.until("staging's Rekon to answer", Duration.ofSeconds(120),
                () -> poster.event("dev.rekon.image.built", Map.of(), "{}").status() == 400);
    }

    @AfterAll
    static void stop() {
        if (stagingRekon != null) {
            stagingRekon.stop();
        }
        if (clusters != null) {
            clusters.close();
        }
    }

    @Test
    void stagingsOwnRekonRollsTheBuildOutAndItsCdEventProvesIt() {
        event("Image", NS, "hello", Kpack.built(dev, NS, "hello", B1, 1)).body("outcome", equalTo("applied"));
        rolledOut(NS);
        clusters.promotion(PromotionFixtures.localStage("dev", null),
                PromotionFixtures.stage("staging", "staging-kubeconfig", NS));
        clusters.reconcile().statusCode(200).body("reason", equalTo("Promoted"));
        KubernetesClient k = staging.adminClient();
        GenericKubernetesResource promoted = k.genericKubernetesResources(PROMOTED).inNamespace(NS).withName("hello")
                .get();
        assertEquals(B1, ((Map<?, ?>) promoted.getAdditionalProperties().get("status")).get("latestImage"));
        assertNull(k.apps().deployments().inNamespace(NS).withName("hello").get(), "staging has no Deployment yet");

        // Staging's ApiServerSource: the PromotedImage's event reaches staging's own Rekon, which rolls it out there.
        Poster.Answer rollout = new Poster(stagingRekon.port()).event("dev.knative.apiserver.resource.update",
                Events.apiServerExtensions("rekon.dev/v1alpha1", "PromotedImage", NS, "hello"), Kpack.json(promoted));
        assertTrue(rollout.body().contains("\"applied\""), rollout.body());
        assertEquals(B1, k.apps().deployments().inNamespace(NS).withName("hello").get().getSpec().getTemplate()
                .getSpec().getContainers().get(0).getImage(), "rolled out by staging's Rekon, in staging's cluster");
        assertEquals("Promoting", stage("staging").path("phase").asText(), "not proven before it rolled out");

        // Staging's Deployment controller: rolled out. Nothing else is sent to the promoting Rekon than the CDEvent.
        PromotionFixtures.deploymentRolledOut(k, NS);
        Await.until("staging proven by the CDEvent its own Rekon sent", Duration.ofSeconds(30),
                () -> "Proven".equals(stage("staging").path("phase").asText()));
        JsonNode idp = ImagePromotionEndToEndTest.JSON.valueToTree(k.genericKubernetesResources(Kpack.IMAGE_DEPLOYS)
                .inNamespace(NS).withName("hello").get());
        assertEquals("deployed", idp.at("/status/history/0/change").asText(), "staging's Rekon recorded the event");
    }

    static JsonNode stage(String name) {
        return clusters.stageStatus(name);
    }
}
