package dev.rekon.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

import dev.rekon.core.TransientFailureException;
import dev.rekon.testing.Kpack;
import dev.rekon.testing.LocalCluster;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.vertx.core.http.HttpClosedException;

/** Failures from a real apiserver (and from none at all) are sorted into transient and permanent. */
class KubeErrorsTest {

    @Test
    void anUnreachableApiServerIsTransient() {
        int closed = dev.rekon.testing.LocalRegistry.freePort();
        try (KubernetesClient nowhere = new KubernetesClientBuilder().withConfig(new ConfigBuilder()
                .withMasterUrl("https://127.0.0.1:" + closed).withRequestRetryBackoffLimit(0)
                .withConnectionTimeout(500).build()).build()) {
            TransientFailureException e = assertThrows(TransientFailureException.class,
                    () -> KubeErrors.call("reading Deployment x/y", () -> nowhere.apps().deployments()
                            .inNamespace("x").withName("y").get()));
            assertEquals(true, e.getMessage().startsWith("reading Deployment x/y failed"), e.getMessage());
        }
    }

    @Test
    void aRequestWhoseConnectionWasClosedUnderItIsSentAgainAFewTimes() {
        java.util.concurrent.atomic.AtomicInteger sent = new java.util.concurrent.atomic.AtomicInteger();
        KubernetesClientException closed = new KubernetesClientException("An error has occurred.",
                new HttpClosedException("Connection was closed"));

        assertEquals("listed", KubeErrors.call("listing ImageDeploys", () -> {
            if (sent.incrementAndGet() == 1) {
                throw closed;
            }
            return "listed";
        }));
        assertEquals(2, sent.get());

        sent.set(0);
        TransientFailureException twice = assertThrows(TransientFailureException.class,
                () -> KubeErrors.call("listing ImageDeploys", () -> {
                    sent.incrementAndGet();
                    throw closed;
                }));
        assertEquals(1 + KubeErrors.CLOSED_RESENDS, sent.get(), "sent a few times more, not again and again: "
                + twice.getMessage());
        assertEquals(3, KubeErrors.CLOSED_RESENDS, "a bounded number of resends");

        sent.set(0);
        assertEquals("listed", KubeErrors.call("listing ImageDeploys", () -> {
            if (sent.incrementAndGet() <= 2) {
                throw closed;
            }
            return "listed";
        }), "a second closed connection from the pool is tried past too");
        assertEquals(3, sent.get());

        sent.set(0);
        assertThrows(KubeErrors.PermanentApiException.class, () -> KubeErrors.call("reading", () -> {
            sent.incrementAndGet();
            throw new KubernetesClientException("forbidden", 403, null);
        }));
        assertEquals(1, sent.get(), "a refusal is not sent again");
    }

    @Test
    void aConflictIsTransientAndAForbiddenIsPermanent() {
        KubernetesClient admin = LocalCluster.get().adminClient();
        Kpack.namespace(admin, "errors");
        var cm = admin.configMaps().inNamespace("errors").resource(new ConfigMapBuilder().withNewMetadata()
                .withName("cm").endMetadata().addToData("a", "1").build()).createOr(c -> c.update());
        cm.getMetadata().setResourceVersion("1");
        cm.getData().put("a", "2");
        assertThrows(TransientFailureException.class, () -> KubeErrors.run("updating ConfigMap errors/cm",
                () -> admin.configMaps().inNamespace("errors").resource(cm).update()));

        admin.serviceAccounts().inNamespace("errors").resource(new io.fabric8.kubernetes.api.model.ServiceAccountBuilder()
                .withNewMetadata().withName("nobody").endMetadata().build()).createOr(s -> s.update());
        try (KubernetesClient nobody = LocalCluster.get().clientAs("errors", "nobody")) {
            KubeErrors.PermanentApiException e = assertThrows(KubeErrors.PermanentApiException.class,
                    () -> KubeErrors.call("listing Secrets", () -> nobody.secrets().inNamespace("errors").list()));
            assertEquals(403, e.code());
        }
    }
}
