package dev.rekon.rollouts;

import static dev.rekon.testing.Events.apiServerExtensions;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.rekon.testing.Events;
import dev.rekon.testing.Kpack;
import dev.rekon.testing.LocalCluster;
import dev.rekon.testing.ServiceAccountTestResource;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;

/**
 * Rollouts as the ServiceAccount of {@code knative/rbac}, allowed in one namespace only: they work there,
 * are refused elsewhere before any API call, and the account can do nothing outside its role.
 */
@QuarkusTest
@TestProfile(LeastPrivilegeRolloutTest.Restricted.class)
class LeastPrivilegeRolloutTest {

    static final String ALLOWED = "rollout-allowed";
    static final String OTHER = "rollout-other";

    public static class Restricted implements QuarkusTestProfile {
        @Override
        public List<TestResourceEntry> testResources() {
            return List.of(new TestResourceEntry(ServiceAccountTestResource.class, Map.of("namespaces", ALLOWED)));
        }

        @Override
        public boolean disableGlobalTestResources() {
            return true;
        }
    }

    @Test
    void rollsOutInTheAllowedNamespaceAndRefusesOthers() {
        KubernetesClient admin = LocalCluster.get().adminClient();
        Kpack.namespace(admin, OTHER);
        for (String ns : List.of(ALLOWED, OTHER)) {
            Kpack.built(admin, ns, "app", "registry.local/app:1", 1);
            ImageRolloutTest.k8s = admin;
            ImageRolloutTest.imageDeploy(ns, "shop", "shop");
        }
        var image = admin.genericKubernetesResources(Kpack.IMAGES).inNamespace(ALLOWED).withName("app").get();
        Events.binary("dev.knative.apiserver.resource.add", apiServerExtensions("kpack.io/v1alpha2", "Image", ALLOWED, "app"),
                Kpack.json(image)).statusCode(200).body("outcome", equalTo("applied"));
        assertEquals("registry.local/app:1", admin.apps().deployments().inNamespace(ALLOWED).withName("shop").get()
                .getSpec().getTemplate().getSpec().getContainers().get(0).getImage());

        var other = admin.genericKubernetesResources(Kpack.IMAGES).inNamespace(OTHER).withName("app").get();
        Events.binary("dev.knative.apiserver.resource.add", apiServerExtensions("kpack.io/v1alpha2", "Image", OTHER, "app"),
                Kpack.json(other)).statusCode(200).body("outcome", equalTo("rejected"))
                .body("reason", equalTo("NamespaceNotAllowed"))
                .body("message", equalTo("namespace 'rollout-other' is not in rekon.namespaces [rollout-allowed]; "
                        + "add it there (or '*') to let Rekon act in it"));
        assertNull(admin.apps().deployments().inNamespace(OTHER).withName("shop").get());
    }

    @Test
    void resyncsAndPrunesInTheAllowedNamespaceOnly() {
        KubernetesClient admin = LocalCluster.get().adminClient();
        Kpack.namespace(admin, OTHER);
        ImageRolloutTest.k8s = admin;
        for (String ns : List.of(ALLOWED, OTHER)) {
            Kpack.built(admin, ns, "app", "registry.local/app:1", 1);
            ImageRolloutTest.imageDeploy(ns, "gone", "gone");
        }
        dev.rekon.testing.Await.until("a resync as the restricted account to create Deployment gone", () -> {
            Events.binary("dev.rekon.resync", Map.of(), "{\"scope\":\"rollouts\"}").statusCode(200);
            return admin.apps().deployments().inNamespace(ALLOWED).withName("gone").get() != null;
        });
        assertNull(admin.apps().deployments().inNamespace(OTHER).withName("gone").get(), "outside rekon.namespaces");

        admin.genericKubernetesResources(Kpack.IMAGE_DEPLOYS).inNamespace(ALLOWED).withName("gone").delete();
        dev.rekon.testing.Await.until("a resync to prune Deployment gone", () -> {
            Events.binary("dev.rekon.resync", Map.of(), "{\"scope\":\"rollouts\"}").statusCode(200)
                    .body("areas[0].failed", equalTo(0));
            return admin.apps().deployments().inNamespace(ALLOWED).withName("gone").get() == null;
        });
        Events.binary("dev.rekon.resync", Map.of(), "{\"scope\":\"rollouts\",\"namespace\":\"" + OTHER + "\"}")
                .statusCode(200).body("outcome", equalTo("rejected")).body("reason", equalTo("NamespaceNotAllowed"));
    }

    @Test
    void theServiceAccountCanDoNothingOutsideItsRole() {
        try (KubernetesClient rekon = LocalCluster.get().clientAs("rekon", "rekon")) {
            assertForbidden(() -> rekon.secrets().inNamespace(ALLOWED).list());
            assertForbidden(() -> rekon.apps().deployments().inNamespace(OTHER).resource(new DeploymentBuilder()
                    .withNewMetadata().withName("intruder").endMetadata().withNewSpec().withNewSelector()
                    .addToMatchLabels("a", "b").endSelector().withNewTemplate().withNewMetadata().addToLabels("a", "b")
                    .endMetadata().withNewSpec().addNewContainer().withName("c").withImage("x").endContainer().endSpec()
                    .endTemplate().endSpec().build()).create());
            assertForbidden(() -> rekon.pods().inNamespace(ALLOWED).list());
            assertForbidden(() -> rekon.apps().deployments().inNamespace(OTHER).withName("shop").delete());
            assertForbidden(() -> rekon.genericKubernetesResources(Kpack.IMAGES).inNamespace(ALLOWED).withName("app")
                    .delete());
        }
    }

    private static void assertForbidden(Runnable call) {
        KubernetesClientException e = assertThrows(KubernetesClientException.class, call::run);
        assertEquals(403, e.getCode(), e.getMessage());
    }
}
