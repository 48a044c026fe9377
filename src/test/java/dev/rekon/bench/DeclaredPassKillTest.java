package dev.rekon.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.rekon.testing.GitWorkdir;
import dev.rekon.testing.LocalCluster;
import dev.rekon.testing.LocalGitServer;
import dev.rekon.testing.ProjectCopy;
import dev.rekon.testing.SharedFiles;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * A real crash in the middle of a parallel resync pass: 100 DeclaredStates of 4 ConfigMaps each, one directory of
 * one repository each, applied by one pass whose keys run in parallel on the loop's queue; the packaged application
 * is SIGKILLed once about half of the objects exist. Every object created is already in its DeclaredState's
 * inventory; started again, one pass converges (every DeclaredState Ready, every object there, each labelled object
 * in its own DeclaredState's inventory and no more), and a further pass writes nothing. The same when it is the
 * apiserver that goes away in the middle of a pass.
 */
class DeclaredPassKillTest {

    static final int STATES = 100;
    static final int OBJECTS = 4;
    static final String LABEL = "rekon.dev/declared-state";
    static final ObjectMapper JSON = new ObjectMapper();

    final KubernetesClient admin = LocalCluster.get().adminClient();
    final LocalGitServer git = LocalGitServer.get();
    final Path out = SharedFiles.projectDir().resolve("target/declared-pass-kill");
    final String ns = "declared-pass-kill-" + UUID.randomUUID().toString().substring(0, 8);

    @Test
    void aPassKilledHalfwayConvergesOnTheNextWithoutOrphansOrSecondWrites() throws Exception {
        Path appDir = ProjectCopy.packagedApp();
        Files.createDirectories(out);
        repository(STATES);
        declaredStates(STATES);

        App first = DeclaredKillTest.start(appDir, out, "first");
        CompletableFuture<Poster.Answer> pass = CompletableFuture.supplyAsync(() -> resync(first));
        awaitObjects(STATES * OBJECTS / 2);
        first.kill();
        int applied = labelled().values().stream().mapToInt(Set::size).sum();
        assertEquals(0, pass.get().status(), "the killed process answered nothing");
        assertTrue(applied < STATES * OBJECTS, "killed mid-pass: " + applied + " of " + STATES * OBJECTS + " applied");
        assertEveryLabelledObjectIsInItsInventory();

        App second = DeclaredKillTest.start(appDir, out, "second");
        try {
            Poster.Answer again = resync(second);
            assertEquals(200, again.status(), again.body());
            assertTrue(again.body().contains("\"reason\":\"Converged\""), again.body());
            Map<String, Set<String>> labelled = labelled();
            assertEquals(STATES, labelled.size(), "every DeclaredState has its objects");
            labelled.forEach((state, ids) -> assertEquals(OBJECTS, ids.size(), state + ": " + ids));
            assertEquals(labelled, inventories(), "nothing orphaned: each inventory is exactly what exists");
            states().forEach((name, s) -> assertEquals("True", DeclaredKillTest.condition(s, "Ready"), name + " Ready"));

            Map<String, String> before = versions();
            Map<String, JsonNode> statuses = states();
            Poster.Answer converged = resync(second);
            assertEquals(200, converged.status(), converged.body());
            assertTrue(converged.body().contains("\"reason\":\"InSync\""), converged.body());
            assertNothingWritten(before, statuses);
        } finally {
            second.stop();
        }
    }

    /**
     * The apiserver SIGKILLed in the middle of a pass of 40 DeclaredStates and started again once the pass has
     * answered: each key the pass could not finish is counted failed, and the next pass does those, with nothing
     * orphaned and nothing written twice.
     */
    @Test
    void theApiServerGoingAwayMidPassLosesNothing() throws Exception {
        int states = 40;
        Path appDir = ProjectCopy.packagedApp();
        Files.createDirectories(out);
        repository(states);
        declaredStates(states);
        SecondApiServer apiServer = SecondApiServer.start(LocalCluster.get(), out.resolve("apiserver"));
        // the client gives a call up after one retry, so that the keys left fail within the outage
        App app = DeclaredKillTest.start(appDir, out, "outage", apiServer.kubeconfig(),
                "quarkus.kubernetes-client.request-retry-backoff-limit=1");
        try {
            CompletableFuture<Poster.Answer> pass = CompletableFuture.supplyAsync(() -> resync(app));
            awaitObjects(states * OBJECTS / 2);
            apiServer.kill();
            Poster.Answer interrupted = pass.get();
            apiServer.launch();
            assertEquals(200, interrupted.status(), interrupted.body());
            JsonNode declared = JSON.readTree(interrupted.body()).path("areas").get(0);
            assertEquals(states, declared.path("checked").asInt(), interrupted.body());
            Set<String> notDone = new TreeSet<>();
            states().forEach((name, s) -> {
                if (!"True".equals(DeclaredKillTest.condition(s, "Ready"))) {
                    notDone.add(name);
                }
            });
            assertTrue(!notDone.isEmpty(), "the outage came in the middle of the pass: " + interrupted.body());
            // a key whose last write landed as the apiserver went may be counted failed too: the next pass finds it done
            Set<String> failed = new TreeSet<>();
            declared.path("objects").forEach(o -> {
                if ("failed".equals(o.path("result").asText())) {
                    failed.add(o.path("object").path("name").asText());
                }
            });
            assertEquals(failed.size(), declared.path("failed").asInt(), interrupted.body());
            assertTrue(failed.containsAll(notDone), "every key not done is counted failed: " + notDone + " not in "
                    + failed);
            assertEveryLabelledObjectIsInItsInventory();

            Poster.Answer next = resync(app);
            assertEquals(200, next.status(), next.body());
            assertEquals(0, JSON.readTree(next.body()).path("areas").get(0).path("failed").asInt(), next.body());
            Map<String, Set<String>> labelled = labelled();
            assertEquals(states, labelled.size(), "every DeclaredState has its objects");
            labelled.forEach((state, ids) -> assertEquals(OBJECTS, ids.size(), state + ": " + ids));
            assertEquals(labelled, inventories(), "nothing orphaned: each inventory is exactly what exists");
            states().forEach((name, s) -> assertEquals("True", DeclaredKillTest.condition(s, "Ready"), name + " Ready"));
            Map<String, String> before = versions();
            Map<String, JsonNode> statuses = states();
            assertTrue(resync(app).body().contains("\"reason\":\"InSync\""));
            assertNothingWritten(before, statuses);
        } finally {
            app.stop();
            apiServer.kill();
        }
    }

    /** One repository: a directory of 4 ConfigMaps for each DeclaredState, their names its own. */
    private void repository(int states) {
        GitWorkdir work = DeclaredKillTest.namespaceAndRepository(admin, git, ns);
        for (int s = 0; s < states; s++) {
            for (int o = 0; o < OBJECTS; o++) {
                String name = String.format("s-%03d-%d", s, o);
                work.write(String.format("s-%03d/%s.yaml", s, name), "apiVersion: v1\nkind: ConfigMap\n"
                        + "metadata:\n  name: " + name + "\ndata:\n  value: \"" + o + "\"\n");
            }
        }
        work.commitAndPush(states * OBJECTS + " ConfigMaps in " + states + " directories");
    }

    private void declaredStates(int states) {
        for (int s = 0; s < states; s++) {
            DeclaredKillTest.declaredState(admin, ns, String.format("d-%03d", s), git.url(ns), String.format("s-%03d", s));
        }
    }

    /** One resync pass of this namespace's DeclaredStates; a pass of 100 may outlast the usual 30 s. */
    private Poster.Answer resync(App app) {
        Poster poster = new Poster(app.port());
        return poster.send(HttpRequest.newBuilder(poster.root()).timeout(Duration.ofMinutes(2))
                .header("ce-specversion", "1.0").header("ce-id", UUID.randomUUID().toString())
                .header("ce-source", "https://127.0.0.1:6443").header("ce-type", "dev.rekon.resync")
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"scope\":\"declared\",\"namespace\":\"" + ns + "\"}"))
                .build());
    }

    private void awaitObjects(int n) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        while (admin.configMaps().inNamespace(ns).withLabel(LABEL).list().getItems().size() < n) {
            assertTrue(System.nanoTime() < deadline, "the pass never got under way");
            Thread.sleep(5);
        }
    }

    /** Each DeclaredState's name to the inventory ids of the ConfigMaps (not being deleted) labelled as its. */
    private Map<String, Set<String>> labelled() {
        Map<String, Set<String>> ids = new TreeMap<>();
        for (ConfigMap c : admin.configMaps().inNamespace(ns).withLabel(LABEL).list().getItems()) {
            if (c.getMetadata().getDeletionTimestamp() == null) {
                String state = c.getMetadata().getLabels().get(LABEL).substring(ns.length() + 1);
                ids.computeIfAbsent(state, k -> new TreeSet<>()).add(ns + "_" + c.getMetadata().getName() + "__ConfigMap");
            }
        }
        return ids;
    }

    private Map<String, JsonNode> states() {
        Map<String, JsonNode> states = new TreeMap<>();
        admin.genericKubernetesResources("rekon.dev/v1alpha1", "DeclaredState").inNamespace(ns).list().getItems()
                .forEach(s -> states.put(s.getMetadata().getName(),
                        JSON.valueToTree(s.getAdditionalProperties().get("status"))));
        return states;
    }

    private Map<String, Set<String>> inventories() {
        Map<String, Set<String>> inventories = new TreeMap<>();
        states().forEach((name, status) -> status.path("inventory").path("entries")
                .forEach(e -> inventories.computeIfAbsent(name, k -> new TreeSet<>()).add(e.path("id").asText())));
        return inventories;
    }

    private void assertEveryLabelledObjectIsInItsInventory() {
        Map<String, Set<String>> inventories = inventories();
        labelled().forEach((state, ids) -> ids.forEach(id -> assertTrue(
                inventories.getOrDefault(state, Set.of()).contains(id), id + " exists but is not in " + state
                        + "'s inventory")));
    }

    /** Every resourceVersion as in {@code before}; else which objects changed, and how the statuses did. */
    private void assertNothingWritten(Map<String, String> before, Map<String, JsonNode> statusesBefore) {
        Map<String, String> after = versions();
        Map<String, JsonNode> statusesAfter = states();
        Set<String> written = new TreeSet<>();
        before.forEach((object, version) -> {
            if (!version.equals(after.get(object))) {
                written.add(object);
            }
        });
        StringBuilder how = new StringBuilder();
        statusesBefore.forEach((name, status) -> {
            if (!status.equals(statusesAfter.get(name))) {
                how.append("\n").append(name).append(": ").append(status).append("\n  -> ").append(statusesAfter.get(name));
            }
        });
        assertEquals(Set.of(), written, "a further pass writes nothing" + how);
    }

    /** resourceVersions of the labelled ConfigMaps and of the DeclaredStates. */
    private Map<String, String> versions() {
        Map<String, String> v = new HashMap<>();
        admin.configMaps().inNamespace(ns).withLabel(LABEL).list().getItems()
                .forEach(c -> v.put("ConfigMap/" + c.getMetadata().getName(), c.getMetadata().getResourceVersion()));
        admin.genericKubernetesResources("rekon.dev/v1alpha1", "DeclaredState").inNamespace(ns).list().getItems()
                .forEach(s -> v.put("DeclaredState/" + s.getMetadata().getName(), s.getMetadata().getResourceVersion()));
        return v;
    }
}
