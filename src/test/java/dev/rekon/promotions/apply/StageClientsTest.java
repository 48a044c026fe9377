package dev.rekon.promotions.apply;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.client.KubernetesClient;

/** What counts as a kubeconfig: one with a cluster's server; anything else is refused, its text never shown. */
class StageClientsTest {

    static final String KUBECONFIG = """
            apiVersion: v1
            kind: Config
            clusters:
            - name: staging
              cluster: {server: "https://127.0.0.1:6443", insecure-skip-tls-verify: true}
            users:
            - name: promoter
              user: {token: not-a-real-token}
            contexts:
            - name: staging
              context: {cluster: staging, user: promoter, namespace: demo}
            current-context: staging
            """;

    @Test
    void aKubeconfigWithAServerMakesAClientForIt() {
        try (KubernetesClient client = StageClients.build(KUBECONFIG)) {
            assertNotNull(client);
            assertEquals("https://127.0.0.1:6443/", client.getConfiguration().getMasterUrl());
            assertEquals(5_000, client.getConfiguration().getConnectionTimeout());
        }
    }

    @Test
    void textThatIsNoKubeconfigMakesNone() {
        assertNull(StageClients.build("just a password"));
        assertNull(StageClients.build("clusters: []"));
        assertNull(StageClients.build("clusters: [{name: a, cluster: {}}]"));
        assertNull(StageClients.build(": : not yaml ["));
    }
}
