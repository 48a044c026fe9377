package dev.rekon.promotions.apply;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;

import dev.rekon.promotions.view.PromotionStage;
import dev.rekon.promotions.view.SecretKeyRef;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * What counts as a kubeconfig: one with a cluster's server; anything else is refused, its text never shown. A kept
 * client counts as confirmed for a plan only by a read of its Secret since the plan began, and a Secret found
 * missing or unusable drops it.
 */
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

    static Secret secret(String kubeconfig) {
        return new SecretBuilder().withNewMetadata().withName("staging-kubeconfig").endMetadata()
                .addToStringData("kubeconfig", kubeconfig).build();
    }

    static final PromotionStage STAGING = new PromotionStage("staging", new SecretKeyRef("staging-kubeconfig", null),
            "demo", "hello", List.of("hello"), null, null, null, null);

    @Test
    void aClientIsConfirmedForAPlanOnlyByAReadOfItsSecretSinceThePlanBegan() {
        StageClients clients = new StageClients();
        clients.mapper = new ObjectMapper();
        try {
            long before = System.nanoTime();
            KubernetesClient first = ((StageAccess.Reached) clients.of("demo", STAGING, secret(KUBECONFIG))).client();
            assertEquals(Optional.of(first), clients.confirmedSince("demo", STAGING.cluster(), before));
            long planBegan = System.nanoTime();
            assertEquals(Optional.empty(), clients.confirmedSince("demo", STAGING.cluster(), planBegan),
                    "no read of the Secret since: a write reads it first");
            assertEquals(Optional.of(first), clients.lastReached("demo", STAGING.cluster()));
            // The same kubeconfig read again: the same client, confirmed anew.
            assertSame(first, ((StageAccess.Reached) clients.of("demo", STAGING, secret(KUBECONFIG))).client());
            assertEquals(Optional.of(first), clients.confirmedSince("demo", STAGING.cluster(), planBegan));
        } finally {
            clients.close();
        }
    }

    @Test
    void aSecretFoundMissingOrUnusableDropsTheClientSoThatEveryPlanReadsItAgain() {
        StageClients clients = new StageClients();
        clients.mapper = new ObjectMapper();
        try {
            clients.of("demo", STAGING, secret(KUBECONFIG));
            long planBegan = System.nanoTime();
            StageAccess missing = clients.of("demo", STAGING, null);
            assertEquals(StageClients.SECRET_NOT_FOUND, ((StageAccess.Refused) missing).reason());
            assertEquals(Optional.empty(), clients.lastReached("demo", STAGING.cluster()));
            assertEquals(Optional.empty(), clients.confirmedSince("demo", STAGING.cluster(), planBegan));
            clients.of("demo", STAGING, secret(KUBECONFIG));
            StageAccess invalid = clients.of("demo", STAGING, secret("just a password"));
            assertEquals(StageClients.INVALID, ((StageAccess.Refused) invalid).reason());
            assertEquals(Optional.empty(), clients.lastReached("demo", STAGING.cluster()));
        } finally {
            clients.close();
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
