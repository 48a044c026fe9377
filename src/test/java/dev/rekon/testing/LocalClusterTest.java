package dev.rekon.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.HttpURLConnection;
import java.net.URI;
import java.time.Duration;
import java.time.LocalTime;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.kubernetes.client.KubernetesClientException;

/** The harness itself: a real apiserver with RBAC and every CRD, and a real registry. */
class LocalClusterTest {

    @Test
    void aStartWhoseTimeoutWouldCrossMidnightWaitsUntilAfterIt() {
        assertEquals(Duration.ZERO, LocalCluster.waitBeforeStart(LocalTime.NOON));
        assertEquals(Duration.ZERO, LocalCluster.waitBeforeStart(LocalTime.of(23, 57, 0)));
        assertEquals(Duration.ofSeconds(91), LocalCluster.waitBeforeStart(LocalTime.of(23, 58, 30)));
        assertEquals(Duration.ofSeconds(2), LocalCluster.waitBeforeStart(LocalTime.of(23, 59, 59)));
        assertEquals(Duration.ZERO, LocalCluster.waitBeforeStart(LocalTime.MIDNIGHT));
    }

    @Test
    void servesTheConfiguredVersionWithEveryCrd() {
        KubernetesClient client = LocalCluster.get().adminClient();
        assertEquals("v" + LocalCluster.VERSION, client.getKubernetesVersion().getGitVersion());
        for (String crd : new String[] { "images.kpack.io", "builders.kpack.io", "clusterbuildpacks.kpack.io",
                "moduletemplates.operator.kyma-project.io", "modulereleasemetas.operator.kyma-project.io",
                "imagedeploys.rekon.dev", "imagedeploys.crd.whizzosoftware.com", "imagepromotions.rekon.dev",
                "promotedimages.rekon.dev" }) {
            assertNotNull(client.apiextensions().v1().customResourceDefinitions().withName(crd).get(), crd);
        }
    }

    @Test
    void enforcesTheCelRulesOfUpstreamCrds() {
        Assumptions.assumeTrue(SharedFiles.crdsDir() != null, "needs Kyma's ModuleReleaseMeta CRD from ../shared/crds");
        Assumptions.assumeTrue(Integer.parseInt(LocalCluster.VERSION.split("\\.")[1]) >= 29,
                "CEL validation rules are enforced from Kubernetes 1.29; this run is on " + LocalCluster.VERSION);
        KubernetesClient admin = LocalCluster.get().adminClient();
        admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("harness-cel").endMetadata()
                .build()).createOr(n -> n.update());
        GenericKubernetesResource meta = Serialization.unmarshal("""
                {"apiVersion": "operator.kyma-project.io/v1beta2", "kind": "ModuleReleaseMeta",
                 "metadata": {"name": "both", "namespace": "harness-cel"},
                 "spec": {"moduleName": "both", "ocmComponentName": "kyma-project.io/module/both",
                          "mandatory": {"version": "1.0.0"},
                          "channels": [{"channel": "regular", "version": "1.0.0"}]}}
                """, GenericKubernetesResource.class);
        KubernetesClientException e = org.junit.jupiter.api.Assertions.assertThrows(KubernetesClientException.class,
                () -> admin.resource(meta).create());
        assertEquals(422, e.getCode());
        assertTrue(e.getMessage().contains("exactly one of 'mandatory' or 'channels'"), e.getMessage());
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
