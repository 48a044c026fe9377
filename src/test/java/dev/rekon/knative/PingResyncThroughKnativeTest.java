package dev.rekon.knative;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import dev.rekon.testing.Await;
import dev.rekon.testing.Kpack;
import dev.rekon.testing.LocalCluster;
import dev.rekon.testing.RekonTestResource;
import dev.rekon.testing.SharedFiles;
import dev.rekon.testing.knative.KnativeLoop;
import dev.rekon.testing.knative.PingSources;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The resync's PingSource through Knative's own PingSource adapter (mtping of knative.dev/eventing v0.50.0): a
 * PingSource with the shipped {@code rekon-resync}'s data, on a test schedule of seconds, fires; the broker routes
 * the event by the shipped Triggers to the resync, which answers with its counts.
 */
@QuarkusTest
@QuarkusTestResource(value = RekonTestResource.class, restrictToAnnotatedClass = false)
class PingResyncThroughKnativeTest {

    private final KubernetesClient admin = LocalCluster.get().adminClient();
    private KnativeLoop loop;

    @AfterEach
    void stop() {
        if (loop != null) {
            loop.close();
        }
    }

    @Test
    void theScheduledPingRunsAResync() {
        Assumptions.assumeTrue(admin.apiextensions().v1().customResourceDefinitions()
                .withName("pingsources.sources.knative.dev").get() != null,
                "the PingSource CRD comes only from ../shared/crds, which is absent: skipped");
        String data = shippedResyncData();
        loop = KnativeLoop.start(LocalCluster.get(), RekonTestResource.port(), "ping");
        loop.startPing();
        Kpack.namespace(admin, "kn-ping");
        PingSources.ready(admin, "kn-ping", "resync-test", "@every 2s", data, loop.broker().url());
        try {
            Await.until("a ping answered by the resync", Duration.ofSeconds(40), () -> pings().stream()
                    .anyMatch(d -> "dev.rekon.resync.result".equals(d.path("reply").asText())));
        } finally {
            admin.genericKubernetesResources("sources.knative.dev/v1", "PingSource").inNamespace("kn-ping")
                    .withName("resync-test").delete();
        }
        JsonNode ping = pings().get(0);
        assertEquals("rekon-resync-ping", ping.path("trigger").asText(), ping.toString());
        loop.assertAllDeliveredOnce();
    }

    private List<JsonNode> pings() {
        return loop.broker().deliveries().stream()
                .filter(d -> "dev.knative.sources.ping".equals(d.path("type").asText())).toList();
    }

    /** The data of the shipped PingSource rekon-resync, so that what it sends is what is tested. */
    private String shippedResyncData() {
        try (var in = java.nio.file.Files.newInputStream(SharedFiles.projectDir()
                .resolve("knative/eventing/sources.yaml"))) {
            return admin.load(in).items().stream().filter(o -> "PingSource".equals(o.getKind()))
                    .map(o -> ((GenericKubernetesResource) o).getAdditionalProperties().get("spec"))
                    .map(spec -> String.valueOf(((java.util.Map<?, ?>) spec).get("data"))).findFirst().orElseThrow();
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
