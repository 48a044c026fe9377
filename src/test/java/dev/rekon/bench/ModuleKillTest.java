package dev.rekon.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.rekon.core.ObjectRef;
import dev.rekon.manifests.Identity;
import dev.rekon.manifests.inventory.InventoryCodec;
import dev.rekon.testing.Await;
import dev.rekon.testing.LocalCluster;
import dev.rekon.testing.LocalRegistry;
import dev.rekon.testing.ProjectCopy;
import dev.rekon.testing.SharedFiles;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * A real crash mid-install: the packaged application, started as a process as in production, gets a Kyma event
 * for a module of 600 objects and is SIGKILLed while it applies them. Every object it created is already in the
 * module's inventory (written ahead); started again, the redelivered event completes the install; the uninstall
 * then leaves no object with the module's label.
 */
class ModuleKillTest {

    static final String MODULE = "killmodule";
    static final String KCP = "kill-kcp";
    static final String TARGET = "kill-module";
    static final int SIZE = 600;

    static LocalRegistry registry;
    final KubernetesClient admin = LocalCluster.get().adminClient();
    final Path out = SharedFiles.projectDir().resolve("target/module-kill");

    @BeforeAll
    static void registry() {
        registry = LocalRegistry.start(LocalRegistry.Options.plain("module-kill-registry"));
    }

    @AfterAll
    static void stop() {
        registry.stop();
    }

    @Test
    void killedMidInstallItConvergesOnRestartAndUninstallsEverything() throws Exception {
        Path appDir = ProjectCopy.packagedApp();
        Files.createDirectories(out);
        BenchModule m = new BenchModule(MODULE, KCP, SIZE);
        m.prepare(admin, registry.hostPort(), TARGET);
        m.kyma(admin, true);

        App first = start(appDir, "first");
        CompletableFuture<Poster.Answer> install = CompletableFuture.supplyAsync(() -> m.kymaEvent(new Poster(first.port())));
        awaitConfigMaps(50);
        first.kill();
        int applied = configMaps();
        assertEquals(0, install.get().status(), "the killed process answered nothing");
        assertTrue(applied < SIZE - 1 - 3 * m.deployments(), "killed mid-install: " + applied + " ConfigMaps applied");
        assertEveryLabelledObjectIsInTheInventory();

        App second = start(appDir, "second");
        try {
            Poster poster = new Poster(second.port());
            Poster.Answer again = redeliver(m, poster);
            assertTrue(again.body().contains("\"reason\":\"ModuleInstalled\""), again.body());
            assertEquals(SIZE - 1 - 3 * m.deployments(), configMaps(), "every ConfigMap applied");
            assertEquals(SIZE - 1, labelled(TARGET).size(), "every namespaced object applied");

            m.kyma(admin, false);
            Poster.Answer uninstall = m.kymaEvent(poster);
            assertTrue(uninstall.body().contains("\"reason\":\"ModuleUninstalled\""), uninstall.body());
            assertEquals(List.of(), labelled(null), "no object with the module's label is left");
        } finally {
            second.stop();
        }
    }

    private App start(Path appDir, String name) {
        App app = App.start(SharedFiles.projectDir(), appDir, Map.of(), LocalCluster.get().kubeconfigFile(),
                out.resolve("rekon-" + name + ".log"), "rekon.resync.on-start=false", "rekon.cluster-scoped=true");
        Poster poster = new Poster(app.port());
        Await.until("the application to answer", Duration.ofSeconds(120),
                () -> poster.event("dev.rekon.image.built", Map.of(), "{}").status() == 400);
        return app;
    }

    /** As Knative redelivers an event whose delivery failed: again, until it is answered. */
    private static Poster.Answer redeliver(BenchModule m, Poster poster) {
        Poster.Answer[] last = new Poster.Answer[1];
        Await.until("the event to be answered", Duration.ofSeconds(60), () -> {
            last[0] = m.kymaEvent(poster);
            return last[0].status() == 200;
        });
        return last[0];
    }

    /** Polls faster than {@link Await}: the rest of the install takes a second or two. */
    private void awaitConfigMaps(int n) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (configMaps() < n) {
            assertTrue(System.nanoTime() < deadline, "the install never got under way");
            Thread.sleep(5);
        }
    }

    private int configMaps() {
        return admin.configMaps().inNamespace(TARGET).withLabel("rekon.dev/module", MODULE).list().getItems().size();
    }

    private void assertEveryLabelledObjectIsInTheInventory() {
        var cm = admin.configMaps().inNamespace(KCP).withName("rekon-module-default-" + MODULE).get();
        var inventory = InventoryCodec.read(cm.getData().get(InventoryCodec.KEY), null);
        assertEquals(SIZE, inventory.objects().size(), "the write-ahead records the whole release");
        for (GenericKubernetesResource r : labelled(TARGET)) {
            ObjectRef ref = new ObjectRef(r.getApiVersion(), r.getKind(), r.getMetadata().getNamespace(),
                    r.getMetadata().getName());
            assertTrue(inventory.entry(ref).isPresent(), Identity.key(ref) + " exists but is not in the inventory");
        }
    }

    /** The module's objects (not being deleted) of every kind it has, in a namespace or everywhere. */
    private List<GenericKubernetesResource> labelled(String namespace) {
        return List.of(new String[] { "v1", "Namespace" }, new String[] { "v1", "ConfigMap" },
                new String[] { "v1", "ServiceAccount" }, new String[] { "v1", "Service" },
                new String[] { "apps/v1", "Deployment" }).stream()
                .filter(k -> namespace == null || !k[1].equals("Namespace"))
                .flatMap(k -> list(k[0], k[1], namespace).stream())
                .filter(r -> r.getMetadata().getDeletionTimestamp() == null).toList();
    }

    private List<GenericKubernetesResource> list(String apiVersion, String kind, String namespace) {
        var op = admin.genericKubernetesResources(apiVersion, kind);
        if (namespace != null) {
            return op.inNamespace(namespace).withLabel("rekon.dev/module", MODULE).list().getItems();
        }
        return "Namespace".equals(kind) ? op.withLabel("rekon.dev/module", MODULE).list().getItems()
                : op.inAnyNamespace().withLabel("rekon.dev/module", MODULE).list().getItems();
    }
}
