package dev.rekon.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

import dev.rekon.core.ForbiddenException;
import dev.rekon.core.KindNotServedException;
import dev.rekon.core.NotFoundException;
import dev.rekon.core.RefusedException;
import dev.rekon.core.TransientFailureException;
import dev.rekon.testing.Kpack;
import dev.rekon.testing.LocalCluster;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
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
        assertThrows(ForbiddenException.class, () -> KubeErrors.call("reading", () -> {
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
            ForbiddenException e = assertThrows(ForbiddenException.class,
                    () -> KubeErrors.call("listing Secrets", () -> nobody.secrets().inNamespace("errors").list()));
            assertEquals(403, e.code());
        }
    }

    /**
     * The edge sorts what callers decide on, so that no area reads a code or a message: a path the apiserver does not
     * serve is a 404 refusal, a kind its discovery does not list is not served (transient unless the caller knows the
     * kind's CRD is on its way), a 403 is forbidden; each keeps the code and the message a reply names.
     */
    @Test
    void notFoundForbiddenAndKindNotServedAreSortedAtTheEdge() {
        KubernetesClient admin = LocalCluster.get().adminClient();
        Kpack.namespace(admin, "errors");
        ResourceDefinitionContext things = new ResourceDefinitionContext.Builder().withGroup("nope.example")
                .withVersion("v1").withKind("Thing").withPlural("things").withNamespaced(true).build();
        NotFoundException missing = assertThrows(NotFoundException.class, () -> KubeErrors.call("listing Things",
                () -> admin.genericKubernetesResources(things).inNamespace("errors").list()));
        assertEquals(404, missing.code());
        assertEquals(true, missing.getMessage().startsWith("listing Things was refused with HTTP 404"),
                missing.getMessage());

        KindNotServedException unserved = assertThrows(KindNotServedException.class, () -> KubeErrors.call(
                "listing Things", () -> admin.genericKubernetesResources("nope.example/v1", "Thing")
                        .inNamespace("errors").list()));
        assertEquals(true, unserved instanceof TransientFailureException, "transient unless a caller knows better");
        assertEquals(true, unserved.getMessage().startsWith("listing Things failed"), unserved.getMessage());

        RefusedException invalid = assertThrows(RefusedException.class, () -> KubeErrors.run("creating ConfigMap",
                () -> admin.configMaps().inNamespace("errors").resource(new ConfigMapBuilder().withNewMetadata()
                        .withName("Not_A_Name").endMetadata().build()).create()));
        assertEquals(422, invalid.code());
        assertEquals(false, invalid instanceof NotFoundException || invalid instanceof ForbiddenException);
    }
}
