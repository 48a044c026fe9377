package dev.rekon.resync;

import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.rekon.bench.Bench;
import dev.rekon.testing.Events;
import dev.rekon.testing.Kpack;
import dev.rekon.testing.LocalCluster;
import dev.rekon.testing.ListWithoutWatchResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;

/**
 * A resync pass whose watch of ImageDeploys cannot run lists them instead, as every other read does while a watch
 * is down: here RBAC grants list and no watch; after an apiserver restart the watch stops on the 404 its kind
 * answers until the CRD is served again, and the chaos run lost a build while every pass answered "no watch".
 */
@QuarkusTest
@TestProfile(ListWithoutWatchResyncTest.ListOnly.class)
class ListWithoutWatchResyncTest {

    static final String NS = "resync-list-only";

    public static class ListOnly implements QuarkusTestProfile {
        @Override
        public List<TestResourceEntry> testResources() {
            return List.of(new TestResourceEntry(ListWithoutWatchResource.class, Map.of("namespace", NS)));
        }

        @Override
        public boolean disableGlobalTestResources() {
            return true;
        }
    }

    @Test
    void aPassWithoutTheImageDeployWatchListsThemAndRollsOut() {
        KubernetesClient admin = LocalCluster.get().adminClient();
        Kpack.built(admin, NS, "app", "registry.local/app:1", 1);
        Bench.imageDeploy(admin, NS, "shop", "app", "shop");

        Events.binary(ResyncFunctions.TYPE, Map.of(), "{\"scope\":\"rollouts\",\"namespace\":\"" + NS + "\"}")
                .statusCode(200).body("reason", equalTo("Converged"))
                .body("areas[0].changed", equalTo(1)).body("areas[0].failed", equalTo(0));
        assertEquals("registry.local/app:1", admin.apps().deployments().inNamespace(NS).withName("shop").get()
                .getSpec().getTemplate().getSpec().getContainers().get(0).getImage());
    }
}
