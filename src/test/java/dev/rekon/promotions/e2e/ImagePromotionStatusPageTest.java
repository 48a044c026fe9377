package dev.rekon.promotions.e2e;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.rekon.status.StatusBrowserPages;
import dev.rekon.testing.Events;
import dev.rekon.testing.Kpack;
import dev.rekon.testing.LocalCluster;
import dev.rekon.testing.RekonTestResource;
import dev.rekon.testing.SharedFiles;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;

/**
 * The page draws each ImagePromotion as its last plan decided it, stages left to right, on the real apiserver and in
 * Debian's headless chromium: {@code hello} failed build 8 in staging (marked), {@code world} soaks build 8 in dev
 * and waits for prod's approval of build 7, told once as a Kubernetes Event. The screenshot is saved as {@code target/promotion-page.png}.
 */
@QuarkusTest
@QuarkusTestResource(value = RekonTestResource.class, restrictToAnnotatedClass = false)
class ImagePromotionStatusPageTest {

    static final String NS = "promo-page";
    static final String B6 = "registry.local/promo-page/hello@sha256:" + "6".repeat(64);
    static final String B7 = "registry.local/promo-page/hello@sha256:" + "7".repeat(64);
    static final String B8 = "registry.local/promo-page/hello@sha256:" + "8".repeat(64);

    static KubernetesClient k8s;

    @BeforeAll
    static void scene() {
        k8s = LocalCluster.get().adminClient();
        Kpack.namespace(k8s, NS);
        Kpack.built(k8s, NS, "hello", B8, 8);
        String settled = Instant.now().minusSeconds(60).toString();
        imageDeploy("hello-dev", Map.of("images", List.of(Map.of("name", "hello", "image", B8)), "conditions", List.of(
                Map.of("type", "Ready", "status", "True", "reason", "Applied", "lastTransitionTime", settled),
                Map.of("type", "RolledOut", "status", "True", "reason", "RolloutComplete", "lastTransitionTime", settled))));
        imageDeploy("hello-staging", null);
        imageDeploy("hello-prod", null);
        promotedImage("hello-staging", B8, 8);
        promotedImage("hello-prod", B7, 7);
        promotedImage("world-staging", B7, 7);
        promotedImage("world-prod", B6, 6);
        promotion("hello", "0s", List.of(
                Map.of("name", "dev", "image", B8, "buildCounter", 8, "phase", "Proven", "since", settled,
                        "lastProven", B8, "lastProvenBuildCounter", 8),
                Map.of("name", "staging", "image", B8, "buildCounter", 8, "phase", "Failed", "since", settled,
                        "lastProven", B7, "lastProvenBuildCounter", 7, "lastFailed", B8,
                        "message", "ImageDeploy hello-staging failed with " + B8 + " (Ready=False: ProgressDeadlineExceeded)"),
                Map.of("name", "prod", "image", B7, "buildCounter", 7, "phase", "Proven", "since", settled,
                        "lastProven", B7, "lastProvenBuildCounter", 7)));
        promotion("world", "10m", List.of(
                Map.of("name", "dev", "image", B8, "buildCounter", 8, "phase", "Promoting", "since", settled),
                Map.of("name", "staging", "image", B7, "buildCounter", 7, "phase", "Proven", "since", settled,
                        "lastProven", B7, "lastProvenBuildCounter", 7),
                Map.of("name", "prod", "image", B6, "buildCounter", 6, "phase", "Proven", "since", settled,
                        "lastProven", B6, "lastProvenBuildCounter", 6)));
    }

    static void imageDeploy(String name, Map<String, Object> status) {
        GenericKubernetesResource idp = Serialization.unmarshal("""
                {"apiVersion": "rekon.dev/v1alpha1", "kind": "ImageDeploy", "metadata": {"name": "%s", "namespace": "%s"},
                 "spec": {"deployment": {"spec": {"replicas": 1, "selector": {"matchLabels": {"app": "%s"}},
                   "template": {"metadata": {"labels": {"app": "%s"}},
                     "spec": {"containers": [{"name": "web", "image": "REF=hello"}]}}}}}}
                """.formatted(name, NS, name, name), GenericKubernetesResource.class);
        var created = k8s.genericKubernetesResources(Kpack.IMAGE_DEPLOYS).inNamespace(NS).resource(idp).create();
        if (status != null) {
            created.setAdditionalProperty("status", status);
            k8s.genericKubernetesResources(Kpack.IMAGE_DEPLOYS).inNamespace(NS).resource(created).updateStatus();
        }
    }

    static void promotedImage(String name, String image, long build) {
        var client = k8s.genericKubernetesResources(ImagePromotionEndToEndTest.PROMOTED).inNamespace(NS);
        GenericKubernetesResource pi = client.resource(Serialization.unmarshal("""
                {"apiVersion": "rekon.dev/v1alpha1", "kind": "PromotedImage", "metadata": {"name": "%s", "namespace": "%s"},
                 "spec": {"promotion": "%s/hello", "stage": "staging"}}""".formatted(name, NS, NS),
                GenericKubernetesResource.class)).create();
        pi.setAdditionalProperty("status", Map.of("latestImage", image, "buildCounter", 1, "source", Map.of(
                "namespace", NS, "image", "hello", "buildCounter", build, "digest", image.substring(image.indexOf('@') + 1)),
                "conditions", List.of(Map.of("type", "Ready", "status", "True", "reason", "Promoted"))));
        client.resource(pi).updateStatus();
    }

    static void promotion(String name, String devSoak, List<Map<String, Object>> stages) {
        var client = k8s.genericKubernetesResources(ImagePromotionEndToEndTest.PROMOTIONS).inNamespace(NS);
        GenericKubernetesResource p = client.resource(Serialization.unmarshal("""
                {"apiVersion": "rekon.dev/v1alpha1", "kind": "ImagePromotion", "metadata": {"name": "%s", "namespace": "%s"},
                 "spec": {"source": {"image": "hello"}, "stages": [
                   {"name": "dev", "imageDeploys": ["hello-dev"], "soak": "%s"},
                   {"name": "staging", "promotedImage": "%s-staging", "imageDeploys": ["hello-staging"]},
                   {"name": "prod", "promotedImage": "%s-prod", "imageDeploys": ["hello-prod"], "approval": "Manual"}]}}
                """.formatted(name, NS, devSoak, name, name), GenericKubernetesResource.class)).create();
        p.setAdditionalProperty("status", Map.of("observedGeneration", 1, "stages", stages));
        client.resource(p).updateStatus();
    }

    @Test
    void thePageDrawsEachPromotionsStagesInOrderAndMarksTheFailedOne() throws Exception {
        for (String name : List.of("hello", "world")) {
            Events.binary("dev.rekon.promotion.reconcile", Map.of(), "{\"namespace\": \"" + NS + "\", \"name\": \""
                    + name + "\"}").statusCode(200);
        }
        JsonPath page = given().queryParam("area", "imagepromotions").queryParam("namespace", NS).get("/status").then()
                .statusCode(200).extract().jsonPath();
        assertEquals(List.of("hello", "world"), page.getList("sections.imagePromotions.rows.name"), "problems first");
        assertEquals(List.of("dev", "staging", "prod"), page.getList("sections.imagePromotions.rows[0].stages.name"));
        assertEquals(List.of("Proven", "Failed", "Proven"), page.getList("sections.imagePromotions.rows[0].stages.phase"));
        assertEquals(List.of("Soaking", "Proven", "WaitingForApproval"),
                page.getList("sections.imagePromotions.rows[1].stages.phase"), "the plan's phases, not the status read");
        assertEquals("approval of " + B7, page.getString("sections.imagePromotions.rows[1].stages[2].waitingFor"));
        assertTrue(page.getString("sections.imagePromotions.rows[1].stages[0].soakLeft").matches("[89]m \\d+s"),
                page.getString("sections.imagePromotions.rows[1].stages[0].soakLeft"));

        // The transition to waiting is one core/v1 Event on the ImagePromotion, however often it is planned again.
        dev.rekon.testing.Await.until("a WaitingForApproval Event on ImagePromotion " + NS + "/world",
                () -> waitingEvents() == 1);
        Thread.sleep(1500);
        Events.binary("dev.rekon.promotion.reconcile", Map.of(), "{\"namespace\": \"" + NS + "\", \"name\": \"world\"}")
                .statusCode(200).body("outcome", org.hamcrest.Matchers.equalTo("unchanged"));
        Thread.sleep(1500);
        assertEquals(1, waitingEvents(), "told once, not on every plan");

        Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/chromium")), "Debian's chromium is not installed;"
                + " hack/control-plane.sh (run by hack/test.sh) installs it");
        String url = "http://127.0.0.1:" + RekonTestResource.port() + "/?area=imagepromotions&namespace=" + NS;
        String dom = StatusBrowserPages.dom(url);
        String hello = promotionOf(dom, "hello");
        assertTrue(hello.matches("(?s)<div class=\"promotion problem\".*"), hello);
        List<String> stages = new ArrayList<>();
        Matcher m = Pattern.compile("(?s)<li class=\"([^\"]*)\" data-stage=\"([^\"]+)\".*?</li>").matcher(hello);
        String staging = null;
        while (m.find()) {
            stages.add(m.group(2));
            if (m.group(2).equals("staging")) {
                staging = m.group();
            }
        }
        assertEquals(List.of("dev", "staging", "prod"), stages);
        assertTrue(staging.contains("stage-failed") && staging.contains("failed: this build goes no further")
                && staging.contains("aria-label=\"stage 2: staging, Failed, needs attention\""), staging);
        assertTrue(staging.contains("sha256:888888888888") && staging.contains("build 8"), staging);
        String world = promotionOf(dom, "world");
        assertTrue(world.contains("waits for approval of") && world.contains("sha256:777777777777…") && world.contains("left, until") && !world.contains("stage-failed"),
                world);

        Path png = SharedFiles.projectDir().resolve("target/promotion-page.png");
        StatusBrowserPages.screenshot(url, png);
        assertTrue(Files.size(png) > 5_000, "a screenshot in " + png);
    }

    /** How often WaitingForApproval was told on ImagePromotion world (an Event's count combines repeats). */
    static int waitingEvents() {
        return k8s.v1().events().inNamespace(NS).list().getItems().stream()
                .filter(e -> "ImagePromotion".equals(e.getInvolvedObject().getKind())
                        && "world".equals(e.getInvolvedObject().getName()) && "WaitingForApproval".equals(e.getReason()))
                .mapToInt(e -> e.getCount() == null ? 1 : e.getCount()).sum();
    }

    /** The {@code <div>} of one ImagePromotion, up to the end of its stages. */
    static String promotionOf(String dom, String name) {
        Matcher m = Pattern.compile("(?s)<div [^>]*data-object=\"ImagePromotion " + NS + "/" + name + "\".*?</ol>")
                .matcher(dom);
        assertTrue(m.find(), "the ImagePromotion " + name + " in " + dom);
        return m.group();
    }
}
