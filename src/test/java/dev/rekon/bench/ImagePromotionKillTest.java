package dev.rekon.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.rekon.testing.Await;
import dev.rekon.testing.Events;
import dev.rekon.testing.Kpack;
import dev.rekon.testing.LocalCluster;
import dev.rekon.testing.PromotionFixtures;
import dev.rekon.testing.ProjectCopy;
import dev.rekon.testing.SharedFiles;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;

/**
 * The promoting Rekon SIGKILLed mid-promotion: the packaged application, started as a process as in production,
 * has rolled a build out in dev and soaks it (the soak's end waits in its memory) when it is killed. Started again
 * before the soak is over, its start-up pass finds the promotion still soaking, keeps the soak's end, and the build
 * reaches staging once it is over: once, and nothing goes back.
 */
class ImagePromotionKillTest {

    static final String DEV = "kill-promo-dev";
    static final String STAGING = "kill-promo-staging";
    static final String B1 = "registry.local/kill/hello@sha256:" + "1".repeat(64);
    static final ObjectMapper JSON = new ObjectMapper();
    static final ResourceDefinitionContext PROMOTIONS = PromotionFixtures.PROMOTIONS;
    static final ResourceDefinitionContext PROMOTED = PromotionFixtures.PROMOTED;

    final KubernetesClient admin = LocalCluster.get().adminClient();
    final Path out = SharedFiles.projectDir().resolve("target/promotion-kill");

    @Test
    void killedWhileABuildSoaksItPromotesItOnceAfterARestart() throws Exception {
        Path appDir = ProjectCopy.packagedApp();
        Files.createDirectories(out);
        Kpack.namespace(admin, DEV);
        Kpack.namespace(admin, STAGING);
        PromotionFixtures.imageDeploy(admin, DEV, null);
        PromotionFixtures.imageDeploy(admin, STAGING, "PromotedImage");
        GenericKubernetesResource image = Kpack.built(admin, DEV, "hello", B1, 1);
        GenericKubernetesResource promotion = PromotionFixtures.promotion(admin, DEV, List.of(
                PromotionFixtures.localStage("dev", "15s"), PromotionFixtures.stage("staging", null, STAGING)));

        App first = start(appDir, "first", "rekon.resync.on-start=false");
        Poster poster = new Poster(first.port());
        Poster.Answer rolled = poster.event("dev.knative.apiserver.resource.update",
                Events.apiServerExtensions("kpack.io/v1alpha2", "Image", DEV, "hello"), Kpack.json(image));
        assertTrue(rolled.body().contains("\"applied\""), rolled.body());
        rolledOut(DEV);
        Await.until("dev soaks the build", Duration.ofSeconds(30), () -> {
            poster.event("dev.rekon.promotion.reconcile", Map.of(), "{\"namespace\":\"" + DEV + "\",\"name\":\"hello\"}");
            return "Soaking".equals(stage("dev").path("phase").asText());
        });
        first.kill();
        assertEquals(null, promoted(), "killed before the soak ended: nothing in staging yet");

        App second = start(appDir, "second");
        try {
            List<String> seen = new ArrayList<>();
            Await.until("the build reaches staging after the restart", Duration.ofSeconds(90), () -> {
                JsonNode p = promoted();
                String latest = p == null ? null : p.path("status").path("latestImage").asText(null);
                if (latest != null && (seen.isEmpty() || !seen.get(seen.size() - 1).equals(latest))) {
                    seen.add(latest);
                }
                return B1.equals(latest);
            });
            // The PromotedImage is written before the promotion's status says so.
            Await.until("dev reported Proven", () -> "Proven".equals(stage("dev").path("phase").asText()));
            assertEquals(List.of(B1), seen, "staging saw only the build, never anything else");
            long promotions = 0;
            for (JsonNode h : promotionStatus().path("history")) {
                if ("staging".equals(h.path("stage").asText()) && "Promoting".equals(h.path("phase").asText())) {
                    promotions++;
                }
            }
            assertEquals(1, promotions, "promoted once: " + promotionStatus().path("history"));
            assertEquals(1, admin.genericKubernetesResources(PROMOTED).inNamespace(STAGING).list().getItems().size());
        } finally {
            second.stop();
        }
        admin.genericKubernetesResources(PROMOTIONS).inNamespace(DEV).resource(promotion).delete();
    }

    private App start(Path appDir, String name, String... properties) {
        List<String> props = new ArrayList<>(List.of("rekon.cluster-scoped=true"));
        props.addAll(List.of(properties));
        App app = App.start(SharedFiles.projectDir(), appDir, Map.of(), LocalCluster.get().kubeconfigFile(),
                out.resolve("rekon-" + name + ".log"), props.toArray(String[]::new));
        Poster poster = new Poster(app.port());
        Await.until("the application to answer", Duration.ofSeconds(120),
                () -> poster.event("dev.rekon.image.built", Map.of(), "{}").status() == 400);
        return app;
    }

    /** The test as the Deployment controller: the ImageDeploy's Deployment has rolled out. */
    private void rolledOut(String ns) {
        Await.until("the Deployment in " + ns, () -> admin.apps().deployments().inNamespace(ns).withName("hello")
                .get() != null);
        PromotionFixtures.deploymentRolledOut(admin, ns);
    }

    private JsonNode promotionStatus() {
        return JSON.valueToTree(admin.genericKubernetesResources(PROMOTIONS).inNamespace(DEV).withName("hello").get())
                .path("status");
    }

    private JsonNode stage(String name) {
        for (JsonNode s : promotionStatus().path("stages")) {
            if (name.equals(s.path("name").asText())) {
                return s;
            }
        }
        return JSON.createObjectNode();
    }

    private JsonNode promoted() {
        GenericKubernetesResource r = admin.genericKubernetesResources(PROMOTED).inNamespace(STAGING).withName("hello")
                .get();
        return r == null ? null : JSON.valueToTree(r);
    }
}
