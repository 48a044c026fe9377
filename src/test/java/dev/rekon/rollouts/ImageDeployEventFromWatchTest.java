package dev.rekon.rollouts;

import static dev.rekon.testing.Events.apiServerExtensions;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import dev.rekon.testing.Await;
import dev.rekon.testing.Events;
import dev.rekon.testing.Kpack;
import dev.rekon.testing.LocalCluster;
import dev.rekon.testing.RekonTestResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * An ImageDeploy's event is planned from the watches once they show the event's version: a burst of events about
 * ImageDeploys that need nothing (a label added to all, the echo of Rekon's own status write) costs no API call. An
 * event the watch has not caught up with, or one without a version (Reference mode), reads the ImageDeploy.
 */
@QuarkusTest
@QuarkusTestResource(value = RekonTestResource.class, restrictToAnnotatedClass = false)
class ImageDeployEventFromWatchTest {

    static final String UPDATE = "dev.knative.apiserver.resource.update";

    @Test
    void anEventTheWatchHasSeenCostsNoApiCallAndOneItHasNotReadsTheImageDeploy() {
        KubernetesClient k8s = LocalCluster.get().adminClient();
        ImageRolloutTest.k8s = k8s;
        String ns = "rollout-from-watch";
        Kpack.namespace(k8s, ns);
        Kpack.built(k8s, ns, "app", ImageRolloutTest.V1, 1);
        ImageRolloutTest.imageDeploy(ns, "web", "");
        Events.binary(UPDATE, apiServerExtensions("rekon.dev/v1alpha1", "ImageDeploy", ns, "web"),
                Kpack.json(ImageRolloutTest.idp(ns, "web"))).statusCode(200).body("outcome", equalTo("applied"));

        // The echo of the status write just made: once the watch shows that version, answering it reads nothing.
        String[] last = new String[1];
        try {
            Await.until("an event at the watch's version answered without an API call", Duration.ofSeconds(20), () -> {
            GenericKubernetesResource echo = ImageRolloutTest.idp(ns, "web");
            Map<String, Double> before = apiCalls();
            last[0] = Events.binary(UPDATE, apiServerExtensions("rekon.dev/v1alpha1", "ImageDeploy", ns, "web"),
                    Kpack.json(echo)).statusCode(200).body("outcome", equalTo("unchanged")).extract().asString();
            Map<String, Double> grown = grown(before, apiCalls());
            last[0] += " calls " + grown;
            return grown.isEmpty();
            });
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "; the last: " + last[0], e);
        }

        // A version the watch has not seen: the ImageDeploy is read, not taken from the watch.
        GenericKubernetesResource ahead = ImageRolloutTest.idp(ns, "web");
        ahead.getMetadata().setResourceVersion(String.valueOf(Long.parseLong(ahead.getMetadata()
                .getResourceVersion()) + 1_000_000));
        Map<String, Double> before = apiCalls();
        Events.binary(UPDATE, apiServerExtensions("rekon.dev/v1alpha1", "ImageDeploy", ns, "web"), Kpack.json(ahead))
                .statusCode(200).body("outcome", equalTo("unchanged"));
        Map<String, Double> grown = grown(before, apiCalls());
        assertTrue(grown.keySet().stream().anyMatch(s -> s.contains("method=\"GET\"") && s.contains("imagedeploys")),
                "an event ahead of the watch reads the ImageDeploy: " + grown);

        // Reference mode names no version: read too.
        before = apiCalls();
        Events.binary("dev.knative.apiserver.ref.update", apiServerExtensions("rekon.dev/v1alpha1", "ImageDeploy", ns,
                "web"), "{\"apiVersion\":\"rekon.dev/v1alpha1\",\"kind\":\"ImageDeploy\",\"namespace\":\"" + ns
                        + "\",\"name\":\"web\"}").statusCode(200).body("outcome", equalTo("unchanged"));
        grown = grown(before, apiCalls());
        assertTrue(grown.keySet().stream().anyMatch(s -> s.contains("method=\"GET\"") && s.contains("imagedeploys")),
                "a Reference-mode event reads the ImageDeploy: " + grown);
        assertEquals(ImageRolloutTest.V1, ImageRolloutTest.deployment(ns, "web").getSpec().getTemplate().getSpec()
                .getContainers().get(0).getImage());
    }

    private static Map<String, Double> apiCalls() {
        String metrics = given().get("/q/metrics").then().statusCode(200).extract().asString();
        Matcher m = Pattern.compile("(?m)^rekon_api_calls_seconds_count(\\{[^}]*}) ([0-9.E+-]+)$").matcher(metrics);
        Map<String, Double> series = new TreeMap<>();
        while (m.find()) {
            series.merge(m.group(1), Double.parseDouble(m.group(2)), Double::sum);
        }
        return series;
    }

    private static Map<String, Double> grown(Map<String, Double> before, Map<String, Double> after) {
        Map<String, Double> grown = new TreeMap<>();
        after.forEach((series, n) -> {
            if (n - before.getOrDefault(series, 0.0) != 0) {
                grown.put(series, n - before.getOrDefault(series, 0.0));
            }
        });
        return grown;
    }
}
