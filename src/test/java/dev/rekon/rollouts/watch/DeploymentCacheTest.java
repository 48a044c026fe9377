package dev.rekon.rollouts.watch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import com.fasterxml.jackson.databind.ObjectMapper;

import dev.rekon.cluster.watch.SharedWatches;
import dev.rekon.core.NamespacePolicy;
import dev.rekon.rollouts.view.RolloutNames;
import dev.rekon.testing.Await;
import dev.rekon.testing.Kpack;
import dev.rekon.testing.LocalCluster;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;

/** The managed-Deployment cache against the real apiserver: it holds what Rekon manages and nothing else. */
class DeploymentCacheTest {

    @ParameterizedTest
    @ValueSource(strings = {"deployment-cache", "*"})
    void holdsManagedDeploymentsOnly(String allowed) {
        KubernetesClient k8s = LocalCluster.get().adminClient();
        String ns = "deployment-cache-" + ("*".equals(allowed) ? "all" : "one");
        Kpack.namespace(k8s, ns);
        create(k8s, ns, "managed", true);
        create(k8s, ns, "foreign", false);
        DeploymentCache cache = new DeploymentCache();
        cache.facet = new ManagedDeploymentFacet();
        // One watch per namespace with an explicit list, one cluster-wide with *.
        cache.watches = SharedWatches.standalone(k8s, new ObjectMapper(), NamespacePolicy.parse("*".equals(allowed) ? "*" : ns),
                List.of(cache.facet));
        try {
            // The watch starts in the background on the first read; until it has synced, callers read the apiserver.
            Await.until("the watch holds the managed Deployment", () -> cache.get(ns, "managed").isPresent());
            assertEquals("managed", cache.get(ns, "managed").orElseThrow().name());
            assertTrue(cache.get(ns, "foreign").isEmpty(), "a Deployment Rekon does not manage is read, not cached");
            k8s.apps().deployments().inNamespace(ns).withName("managed").edit(d -> {
                d.getSpec().getTemplate().getSpec().getContainers().get(0).setImage("web:2");
                return d;
            });
            // While its watch restarts (a relist), the cache answers nothing rather than something old: keep asking.
            Await.until("the watch sees the new image", () -> "web:2".equals(
                    cache.get(ns, "managed").map(d -> d.imageOf(false, "web")).orElse(null)));
        } finally {
            cache.watches.stop();
        }
    }

    private static void create(KubernetesClient k8s, String ns, String name, boolean managed) {
        var meta = new DeploymentBuilder().withNewMetadata().withName(name).withNamespace(ns);
        if (managed) {
            meta.addToLabels(RolloutNames.MANAGED_BY, "rekon");
        }
        k8s.apps().deployments().inNamespace(ns).resource(meta.endMetadata().withNewSpec().withNewSelector()
                .addToMatchLabels("app", name).endSelector().withNewTemplate().withNewMetadata().addToLabels("app", name)
                .endMetadata().withNewSpec().addNewContainer().withName("web").withImage("web:1").endContainer().endSpec()
                .endTemplate().endSpec().build()).create();
    }
}
