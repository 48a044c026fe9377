package dev.rekon.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.HttpURLConnection;
import java.net.URI;

import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;

/** The harness itself: a real apiserver with RBAC and every CRD, and a real registry. */
class LocalClusterTest {

    @Test
    void servesVersion120WithEveryCrd() {
        KubernetesClient client = LocalCluster.get().adminClient();
        assertEquals("20", client.getKubernetesVersion().getMinor());
        for (String crd : new String[] { "images.kpack.io", "builders.kpack.io", "clusterbuildpacks.kpack.io",
                "moduletemplates.operator.kyma-project.io", "modulereleasemetas.operator.kyma-project.io",
                "imagedeploys.rekon.dev", "imagedeploys.crd.whizzosoftware.com" }) {
            assertNotNull(client.apiextensions().v1().customResourceDefinitions().withName(crd).get(), crd);
        }
    }

    @Test
    void enforcesRbacForServiceAccounts() {
        KubernetesClient admin = LocalCluster.get().adminClient();
        admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("harness").endMetadata().build())
                .createOr(n -> n.update());
        admin.serviceAccounts().inNamespace("harness").resource(new ServiceAccountBuilder().withNewMetadata()
                .withName("nobody").endMetadata().build()).createOr(n -> n.update());
        try (KubernetesClient nobody = LocalCluster.get().clientAs("harness", "nobody")) {
            KubernetesClientException e = org.junit.jupiter.api.Assertions.assertThrows(KubernetesClientException.class,
                    () -> nobody.secrets().inNamespace("harness").list());
            assertEquals(403, e.getCode());
        }
    }

    @Test
    void registryAnswersTheDistributionApi() throws Exception {
        LocalRegistry registry = LocalRegistry.get();
        HttpURLConnection c = (HttpURLConnection) URI.create("http://" + registry.hostPort() + "/v2/").toURL()
                .openConnection();
        assertEquals(200, c.getResponseCode());
        assertTrue(registry.isRunning());
    }
}
