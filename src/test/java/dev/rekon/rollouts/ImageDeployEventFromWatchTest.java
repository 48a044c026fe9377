package dev.rekon.rollouts;

import static dev.rekon.testing.Events.apiServerExtensions;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.rekon.testing.ApiCallSeries;
import dev.rekon.testing.Events;
import dev.rekon.testing.Kpack;
import dev.rekon.testing.LocalCluster;
import dev.rekon.testing.RekonTestResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * An ImageDeploy's event is planned from the newer of its own copy and the watch's: a burst of events about
 * ImageDeploys that need nothing (a label added to all, the echo of Rekon's own status write) costs no API call, a
 * late event changes nothing, and only a Reference-mode event (no copy) reads the ImageDeploy.
 */
@QuarkusTest
@QuarkusTestResource(value = RekonTestResource.class, restrictToAnnotatedClass = false)
class ImageDeployEventFromWatchTest {

    static final String UPDATE = "dev.knative.apiserver.resource.update";

    @Test
    void anEventIsPlannedFromItsOwnCopyOrTheWatchsNewerOneWithoutReadingTheImageDeploy() {
        KubernetesClient k8s = LocalCluster.get().adminClient();
        ImageRolloutTest.k8s = k8s;
        String ns = "rollout-from-watch";
        Kpack.namespace(k8s, ns);
        Kpack.built(k8s, ns, "app", ImageRolloutTest.V1, 1);
        Kpack.built(k8s, ns, "other", ImageRolloutTest.V2, 4);
        ImageRolloutTest.imageDeploy(ns, "web", "");
        // The first event in the namespace starts its watches (their lists are reads); planned from the event's copy.
        Events.binary(UPDATE, apiServerExtensions("rekon.dev/v1alpha1", "ImageDeploy", ns, "web"),
                Kpack.json(ImageRolloutTest.idp(ns, "web"))).statusCode(200).body("outcome", equalTo("applied"));

        // The echo of the last status write (the reply's, then the one following the new Deployment's status, made
        // after the reply): nothing to do, and nothing read to find that out.
        GenericKubernetesResource echo = settled(ns);
        Map<String, Double> before = ApiCallSeries.now();
        Events.binary(UPDATE, apiServerExtensions("rekon.dev/v1alpha1", "ImageDeploy", ns, "web"), Kpack.json(echo))
                .statusCode(200).body("outcome", equalTo("unchanged"));
        assertEquals(Map.of(), ApiCallSeries.grown(before, ApiCallSeries.now()), "the echo of Rekon's own status write costs no API call");

        // A change the watch may not have yet: the event's copy is the newer, and its write is guarded by it.
        GenericKubernetesResource changed = k8s.genericKubernetesResources(Kpack.IMAGE_DEPLOYS).inNamespace(ns)
                .withName("web").edit(r -> {
                    Map<String, Object> spec = (Map<String, Object>) r.getAdditionalProperties().get("spec");
                    Map<String, Object> container = ((java.util.List<Map<String, Object>>) ((Map<String, Object>)
                            ((Map<String, Object>) ((Map<String, Object>) ((Map<String, Object>) spec
                                    .get("deployment")).get("spec")).get("template")).get("spec")).get("containers"))
                            .get(0);
                    container.put("image", "REF=other");
                    return r;
                });
        before = ApiCallSeries.now();
        Events.binary(UPDATE, apiServerExtensions("rekon.dev/v1alpha1", "ImageDeploy", ns, "web"), Kpack.json(changed))
                .statusCode(200).body("outcome", equalTo("applied"));
        assertNoRead(before, "a changed ImageDeploy's event");
        assertEquals(ImageRolloutTest.V2, image(ns));

        // The older event, late: the watch's copy (or Rekon's own write) is newer, and says nothing is to be done.
        before = ApiCallSeries.now();
        Events.binary(UPDATE, apiServerExtensions("rekon.dev/v1alpha1", "ImageDeploy", ns, "web"), Kpack.json(echo))
                .statusCode(200).body("outcome", equalTo("unchanged"));
        assertNoRead(before, "a late event");
        assertEquals(ImageRolloutTest.V2, image(ns), "never backwards");

        // A copy that is not of the object the event names (here: no name) is not planned from: it is read.
        GenericKubernetesResource nameless = ImageRolloutTest.idp(ns, "web");
        nameless.getMetadata().setName(null);
        Events.binary(UPDATE, apiServerExtensions("rekon.dev/v1alpha1", "ImageDeploy", ns, "web"),
                Kpack.json(nameless)).statusCode(200).body("outcome", equalTo("unchanged"));

        // Reference mode carries no copy: the ImageDeploy is read.
        before = ApiCallSeries.now();
        Events.binary("dev.knative.apiserver.ref.update", apiServerExtensions("rekon.dev/v1alpha1", "ImageDeploy", ns,
                "web"), "{\"apiVersion\":\"rekon.dev/v1alpha1\",\"kind\":\"ImageDeploy\",\"namespace\":\"" + ns
                        + "\",\"name\":\"web\"}").statusCode(200).body("outcome", equalTo("unchanged"));
        Map<String, Double> grown = ApiCallSeries.grown(before, ApiCallSeries.now());
        assertTrue(grown.keySet().stream().anyMatch(s -> s.contains("method=\"GET\"") && s.contains("imagedeploys")),
                "a Reference-mode event reads the ImageDeploy: " + grown);
    }

    /** The ImageDeploy once Rekon has stopped writing it (its version unchanged for 2 s, within 20 s). */
    private static GenericKubernetesResource settled(String ns) {
        GenericKubernetesResource[] last = {ImageRolloutTest.idp(ns, "web")};
        long[] since = {System.nanoTime()};
        dev.rekon.testing.Await.until("ImageDeploy " + ns + "/web settled", java.time.Duration.ofSeconds(20), () -> {
            GenericKubernetesResource now = ImageRolloutTest.idp(ns, "web");
            if (!now.getMetadata().getResourceVersion().equals(last[0].getMetadata().getResourceVersion())) {
                last[0] = now;
                since[0] = System.nanoTime();
            }
            return System.nanoTime() - since[0] > 2_000_000_000L;
        });
        return last[0];
    }

    private static String image(String ns) {
        return ImageRolloutTest.deployment(ns, "web").getSpec().getTemplate().getSpec().getContainers().get(0)
                .getImage();
    }

    private static void assertNoRead(Map<String, Double> before, String what) {
        Map<String, Double> grown = ApiCallSeries.grown(before, ApiCallSeries.now());
        assertTrue(grown.keySet().stream().noneMatch(s -> s.contains("method=\"GET\"")
                && s.contains("rekon.dev/imagedeploys")), what + " reads no ImageDeploy: " + grown);
    }

}
