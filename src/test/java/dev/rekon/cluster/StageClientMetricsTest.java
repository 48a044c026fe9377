package dev.rekon.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

import dev.rekon.core.ObjectRef;
import dev.rekon.testing.LocalCluster;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/**
 * A client of another cluster (a promotion stage's) on a real apiserver: each call, the concurrent reads a
 * promotion sends included, is timed in {@code rekon.stage.api.calls} with the tags of Rekon's own, and none in
 * {@code rekon.api.calls}, which counts this cluster's apiserver only.
 */
class StageClientMetricsTest {

    static final ResourceDefinitionContext NAMESPACES = new ResourceDefinitionContext.Builder().withGroup("")
            .withVersion("v1").withPlural("namespaces").withKind("Namespace").withNamespaced(false).build();

    @Test
    void aStageClientsCallsAreCountedApartFromRekonsOwn() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        ApiCallMetrics metrics = new ApiCallMetrics(registry);
        try (KubernetesClient stage = metrics.stageClient(LocalCluster.get().adminClient().getConfiguration())) {
            assertNotNull(stage.namespaces().withName("default").get());
            assertNull(ConcurrentReads.get(stage, NAMESPACES, new ObjectRef("v1", "Namespace", "x", "x"),
                    Namespace.class, "reading", () -> null).join(), "a 404 is none");
        }
        assertEquals(1, registry.get(ApiCallMetrics.STAGE_TIMER).tags("method", "GET", "resource", "namespaces",
                "status", "200").timer().count());
        assertEquals(1, registry.get(ApiCallMetrics.STAGE_TIMER).tags("method", "GET", "resource", "namespaces",
                "status", "404").timer().count());
        assertNull(registry.find(ApiCallMetrics.TIMER).timer(), "none counted as this cluster's");
    }
}
