package dev.rekon.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.rekon.testing.Await;
import dev.rekon.testing.GitWorkdir;
import dev.rekon.testing.LocalCluster;
import dev.rekon.testing.LocalGitServer;
import dev.rekon.testing.ProjectCopy;
import dev.rekon.testing.SharedFiles;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;

/**
 * A real crash mid-apply of declared state: the packaged application, started as a process as in production, is
 * asked to reconcile a DeclaredState whose branch holds 300 ConfigMaps and is SIGKILLed while it applies them.
 * Every object it created is already in the DeclaredState's inventory (written ahead); started again, the
 * redelivered event completes the apply; a push dropping 100 files then prunes exactly those, and every object
 * with the DeclaredState's label is in its inventory at each step.
 */
class DeclaredKillTest {

    static final int SIZE = 300;
    static final int DROPPED = 100;
    static final String NAME = "apps";
    static final ObjectMapper JSON = new ObjectMapper();

    final KubernetesClient admin = LocalCluster.get().adminClient();
    final LocalGitServer git = LocalGitServer.get();
    final Path out = SharedFiles.projectDir().resolve("target/declared-kill");
    final String ns = "declared-kill-" + UUID.randomUUID().toString().substring(0, 8);

    @Test
    void killedMidApplyItConvergesOnRestartAndAPushPrunesWithoutOrphans() throws Exception {
        Path appDir = ProjectCopy.packagedApp();
        Files.createDirectories(out);
        GitWorkdir work = repository();
        declaredState();

        App first = start(appDir, "first");
        CompletableFuture<Poster.Answer> apply = CompletableFuture.supplyAsync(() -> reconcile(new Poster(first.port())));
        awaitConfigMaps(30);
        first.kill();
        int applied = labelled().size();
        assertEquals(0, apply.get().status(), "the killed process answered nothing");
        assertTrue(applied < SIZE, "killed mid-apply: " + applied + " ConfigMaps applied");
        assertEquals(SIZE, inventory().size(), "the write-ahead records the whole revision");
        assertEveryLabelledObjectIsInTheInventory();

        App second = start(appDir, "second");
        try {
            Poster poster = new Poster(second.port());
            Poster.Answer again = redeliver(poster);
            assertTrue(again.body().contains("\"outcome\":\"applied\""), again.body());
            assertEquals(SIZE, labelled().size(), "every ConfigMap applied");
            assertEquals("True", condition("Ready"), "Ready once the revision is applied");
            assertEquals(labelled(), inventory(), "the inventory is exactly what exists");

            work.delete("drop").commitAndPush("drop " + DROPPED);
            Poster.Answer pruned = redeliver(poster);
            assertTrue(pruned.body().contains("\"outcome\":\"applied\""), pruned.body());
            Set<String> left = labelled();
            assertEquals(SIZE - DROPPED, left.size(), "what left git is pruned");
            assertTrue(left.stream().allMatch(id -> id.contains("_keep-")), "only what git still holds is left: " + left);
            assertEquals(left, inventory(), "nothing orphaned: every labelled object is in the inventory and no more");
            assertEquals("True", condition("Ready"));
        } finally {
            second.stop();
        }
    }

    /** A repository whose main branch holds 300 ConfigMaps, one a file: 200 under keep/, 100 under drop/. */
    private GitWorkdir repository() {
        GitWorkdir work = namespaceAndRepository(admin, git, ns);
        for (int i = 0; i < SIZE; i++) {
            String name = (i < SIZE - DROPPED ? "keep-" : "drop-") + String.format("%03d", i);
            work.write((i < SIZE - DROPPED ? "keep/" : "drop/") + name + ".yaml", "apiVersion: v1\nkind: ConfigMap\n"
                    + "metadata:\n  name: " + name + "\ndata:\n  value: \"" + i + "\"\n");
        }
        work.commitAndPush(SIZE + " ConfigMaps");
        return work;
    }

    private void declaredState() {
        declaredState(admin, ns, NAME, git.url(ns), "");
    }

    /** A namespace with the git server's credentials as Secret {@code git-creds}, and a repository of its name. */
    static GitWorkdir namespaceAndRepository(KubernetesClient admin, LocalGitServer git, String ns) {
        admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata().build()).create();
        admin.secrets().inNamespace(ns).resource(new SecretBuilder().withNewMetadata().withName("git-creds").endMetadata()
                .addToStringData("username", LocalGitServer.USER).addToStringData("password", LocalGitServer.PASSWORD)
                .build()).create();
        git.createRepo(ns);
        return git.clone(ns);
    }

    /** A DeclaredState following main of {@code url} ({@code path} in it), writing only to its own namespace. */
    static void declaredState(KubernetesClient admin, String ns, String name, String url, String path) {
        String yaml = """
                apiVersion: rekon.dev/v1alpha1
                kind: DeclaredState
                metadata: {name: NAME, namespace: NS}
                spec:
                  git: {url: "URL", branch: main, PATHsecretRef: {name: git-creds}}
                  namespaces: [NS]
                """.replace("NAME", name).replace("NS", ns).replace("URL", url)
                // An empty path is left out: Kubernetes 1.20 refuses the null it would be sent as.
                .replace("PATH", path.isEmpty() ? "" : "path: \"" + path + "\", ");
        admin.resource(Serialization.unmarshal(yaml, GenericKubernetesResource.class)).create();
    }

    private App start(Path appDir, String name) {
        return start(appDir, out, name);
    }

    /** The packaged application as a process, its log and git cache under {@code out}, once it answers events. */
    static App start(Path appDir, Path out, String name) {
        return start(appDir, out, name, LocalCluster.get().kubeconfigFile());
    }

    /** The same, talking to the apiserver {@code kubeconfig} names, with more of its {@code properties}. */
    static App start(Path appDir, Path out, String name, Path kubeconfig, String... properties) {
        List<String> all = new ArrayList<>(List.of("rekon.resync.on-start=false",
                "rekon.declared.cache-dir=" + out.resolve("git-cache")));
        all.addAll(List.of(properties));
        App app = App.start(SharedFiles.projectDir(), appDir, Map.of(), kubeconfig,
                out.resolve("rekon-" + name + ".log"), all.toArray(String[]::new));
        Poster poster = new Poster(app.port());
        Await.until("the application to answer", Duration.ofSeconds(120),
                () -> poster.event("dev.rekon.image.built", Map.of(), "{}").status() == 400);
        return app;
    }

    private Poster.Answer reconcile(Poster poster) {
        return poster.event("dev.rekon.declared.reconcile", Map.of(),
                "{\"namespace\":\"" + ns + "\",\"name\":\"" + NAME + "\"}");
    }

    /** As Knative redelivers an event whose delivery failed: again, until it is answered. */
    private Poster.Answer redeliver(Poster poster) {
        Poster.Answer[] last = new Poster.Answer[1];
        Await.until("the event to be answered", Duration.ofSeconds(60), () -> {
            last[0] = reconcile(poster);
            return last[0].status() == 200;
        });
        return last[0];
    }

    /** Polls faster than {@link Await}: the rest of the apply takes a second or two. */
    private void awaitConfigMaps(int n) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (labelled().size() < n) {
            assertTrue(System.nanoTime() < deadline, "the apply never got under way");
            Thread.sleep(5);
        }
    }

    /** The inventory ids of the ConfigMaps (not being deleted) labelled as this DeclaredState's. */
    private Set<String> labelled() {
        Set<String> ids = new TreeSet<>();
        admin.configMaps().inNamespace(ns).withLabel("rekon.dev/declared-state", ns + "." + NAME).list().getItems()
                .stream().filter(c -> c.getMetadata().getDeletionTimestamp() == null)
                .forEach(c -> ids.add(ns + "_" + c.getMetadata().getName() + "__ConfigMap"));
        return ids;
    }

    private JsonNode status() {
        GenericKubernetesResource s = admin.genericKubernetesResources("rekon.dev/v1alpha1", "DeclaredState")
                .inNamespace(ns).withName(NAME).get();
        return JSON.valueToTree(s.getAdditionalProperties().get("status"));
    }

    private Set<String> inventory() {
        Set<String> ids = new TreeSet<>();
        status().path("inventory").path("entries").forEach(e -> ids.add(e.path("id").asText()));
        return ids;
    }

    private String condition(String type) {
        return condition(status(), type);
    }

    /** The status of condition {@code type} in a DeclaredState's {@code status}; null when it has none. */
    static String condition(JsonNode status, String type) {
        for (JsonNode c : status.path("conditions")) {
            if (type.equals(c.path("type").asText())) {
                return c.path("status").asText();
            }
        }
        return null;
    }

    private void assertEveryLabelledObjectIsInTheInventory() {
        Set<String> inventory = inventory();
        for (String id : labelled()) {
            assertTrue(inventory.contains(id), id + " exists but is not in the inventory");
        }
    }
}
