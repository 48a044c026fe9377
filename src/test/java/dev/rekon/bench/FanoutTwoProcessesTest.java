package dev.rekon.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.rekon.testing.Await;
import dev.rekon.testing.GitWorkdir;
import dev.rekon.testing.Kpack;
import dev.rekon.testing.LocalCluster;
import dev.rekon.testing.LocalGitServer;
import dev.rekon.testing.ProjectCopy;
import dev.rekon.testing.SharedFiles;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.utils.Serialization;

/**
 * One resync pass shared by two Rekon processes through a fan-out sink: the packaged application twice, as
 * replicas, and the test's own Broker ({@link SpreadingBroker}) handing the pass's reconcile events to each in
 * turn. 40 ImageDeploys over 4 kpack Images, their builds behind (the events lost): a pass posted to one process
 * is worked by both, every Deployment is written once and never goes back, and a converged pass writes nothing.
 * The same for DeclaredStates, each following a repository of its own: a pass applies each once, by both
 * processes, and after a push a pass writes only what changed.
 */
class FanoutTwoProcessesTest {

    static final String NS = "fanout-e2e";
    static final int IMAGES = 4;
    static final int DEPLOYS = 40;
    static final String PASS = "dev.rekon.resync";
    static final String KEY_TYPE = "dev.knative.apiserver.ref.update";

    static final int STATES = 6;
    static final int FILES = 5;
    static final String DECLARED_TYPE = "dev.rekon.declared.reconcile";
    static final Path OUT = SharedFiles.projectDir().resolve("target/fanout-two-processes");

    static SpreadingBroker broker;
    static App a;
    static App b;

    final KubernetesClient admin = LocalCluster.get().adminClient();

    /** Two processes as two replicas of one Service, each with the fan-out sink set, and the broker before them. */
    @BeforeAll
    static void replicas() throws Exception {
        Path appDir = ProjectCopy.packagedApp();
        Files.createDirectories(OUT);
        LocalCluster.get();
        broker = new SpreadingBroker();
        a = start(appDir, "a", broker);
        b = start(appDir, "b", broker);
        broker.deliverTo(a.port(), b.port());
    }

    @AfterAll
    static void stop() {
        for (App app : new App[] {a, b}) {
            if (app != null) {
                app.stop();
            }
        }
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void twoProcessesShareOneFannedOutPassAndWriteEachDeploymentOnce() throws Exception {
        Kpack.namespace(admin, NS);
        for (int i = 0; i < IMAGES; i++) {
            Kpack.built(admin, NS, "img-" + i, Poster.digest("registry.local/fanout/img-" + i, 1), 1);
        }
        for (int j = 0; j < DEPLOYS; j++) {
            imageDeploy("app-" + j, "img-" + (j % IMAGES));
        }
        Poster toA = new Poster(a.port());

        Poster.Answer first = pass(toA, ROLLOUTS, DEPLOYS);
        assertEquals(200, first.status(), first.body());
        assertTrue(first.body().contains(DEPLOYS + " sent to the fan-out sink"), first.body());
        Await.until("every Deployment at build 1", Duration.ofSeconds(60), () -> allAt(1));

        // Every build moves on while no event reaches Rekon: only a pass finds them.
        Map<String, List<Long>> seen = new ConcurrentHashMap<>();
        try (Watch watch = watchDeployments(seen)) {
            for (int i = 0; i < IMAGES; i++) {
                Kpack.built(admin, NS, "img-" + i, Poster.digest("registry.local/fanout/img-" + i, 2), 2);
            }
            Poster.Answer second = pass(toA, ROLLOUTS, DEPLOYS);
            assertEquals(200, second.status(), second.body());
            Await.until("every Deployment at build 2", Duration.ofSeconds(60), () -> allAt(2));

            // A converged pass, delivered twice (the same event id): every key goes out, under the same ids
            // both times, and nothing is written.
            for (int i = 0; i < 2; i++) {
                Poster.Answer converged = pass(toA, ROLLOUTS, DEPLOYS, "converged-pass");
                assertTrue(converged.body().contains("FannedOut"), converged.body());
            }
            Thread.sleep(1000);
            for (int j = 0; j < DEPLOYS; j++) {
                assertEquals(List.of(2L), seen.get("app-" + j), "app-" + j
                        + " written once, to build 2, and never again: " + seen.get("app-" + j));
            }
        }

        List<SpreadingBroker.Delivery> keys = broker.deliveries().stream()
                .filter(d -> KEY_TYPE.equals(d.type())).toList();
        assertEquals(4 * DEPLOYS, keys.size(), "one event per ImageDeploy and pass, each taken at once");
        assertEquals(3 * DEPLOYS, keys.stream().map(SpreadingBroker.Delivery::id).distinct().count(),
                "the pass delivered again sent the ids it sent the first time");
        assertTrue(keys.stream().allMatch(d -> d.status() == 200), keys.stream()
                .filter(d -> d.status() != 200).toList().toString());
        Map<Integer, Long> byProcess = keys.stream().collect(Collectors.groupingBy(
                SpreadingBroker.Delivery::port, Collectors.counting()));
        assertEquals(Map.of(a.port(), (long) 2 * DEPLOYS, b.port(), (long) 2 * DEPLOYS), byProcess);
        for (App app : List.of(a, b)) {
            assertTrue(appliedKeys(app) > 0, "process " + app.port() + " rolled builds out itself");
        }
        assertEquals(2 * DEPLOYS, appliedKeys(a) + appliedKeys(b),
                "each ImageDeploy applied once per pass that had a build to roll out");
        assertEquals(4 * DEPLOYS, fannedOut(a, "rollouts"), "what the passes sent, and no key sent on by a");
        assertEquals(0, fannedOut(b, "rollouts"), "an event from the fan-out is worked where it lands, never sent on");
    }

    @Test
    void twoProcessesShareOneFannedOutPassOfDeclaredStates() throws Exception {
        LocalGitServer git = LocalGitServer.get();
        String run = java.util.UUID.randomUUID().toString().substring(0, 6);
        List<String> namespaces = new ArrayList<>();
        List<GitWorkdir> repos = new ArrayList<>();
        for (int k = 0; k < STATES; k++) {
            String ns = "fanout-decl-" + run + "-" + k;
            namespaces.add(ns);
            repos.add(declaredState(git, ns));
        }
        String scope = "{\"scope\": \"declared\"}";
        Map<String, List<String>> writes = new ConcurrentHashMap<>();
        try (Watch watch = watchConfigMaps(writes)) {
            int before = broker.deliveries().size();
            Poster.Answer first = pass(new Poster(a.port()), scope, STATES, java.util.UUID.randomUUID().toString());
            assertEquals(200, first.status(), first.body());
            assertTrue(first.body().contains("sent to the fan-out sink"), first.body());
            Await.until("every DeclaredState applied", Duration.ofSeconds(90), () -> namespaces.stream()
                    .allMatch(ns -> admin.configMaps().inNamespace(ns).withLabel("rekon.dev/declared-state").list()
                            .getItems().size() == FILES));
            List<SpreadingBroker.Delivery> keys = broker.deliveries().subList(before, broker.deliveries().size())
                    .stream().filter(d -> DECLARED_TYPE.equals(d.type())).toList();
            assertTrue(keys.stream().allMatch(d -> d.status() == 200), keys.toString());
            assertTrue(keys.stream().anyMatch(d -> d.port() == a.port()) && keys.stream()
                    .anyMatch(d -> d.port() == b.port()), "worked by both processes: " + keys);

            for (GitWorkdir repo : repos) {
                repo.write("cm-0.yaml", configMap(0, "changed")).commitAndPush("change cm-0");
            }
            Poster.Answer second = pass(new Poster(a.port()), scope, STATES, java.util.UUID.randomUUID().toString());
            assertEquals(200, second.status(), second.body());
            Await.until("every cm-0 changed", Duration.ofSeconds(90), () -> namespaces.stream().allMatch(ns -> "changed"
                    .equals(admin.configMaps().inNamespace(ns).withName("cm-0").get().getData().get("value"))));
            Thread.sleep(1000);
        }
        for (String ns : namespaces) {
            for (int i = 0; i < FILES; i++) {
                List<String> w = writes.get(ns + "/cm-" + i);
                assertEquals(i == 0 ? List.of("0", "changed") : List.of(String.valueOf(i)), w,
                        ns + "/cm-" + i + ": written once per change, never back");
            }
        }
    }

    /** A namespace, a repository of {@value #FILES} ConfigMaps and a DeclaredState following it. */
    private GitWorkdir declaredState(LocalGitServer git, String ns) {
        admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata().build()).create();
        admin.secrets().inNamespace(ns).resource(new SecretBuilder().withNewMetadata().withName("git-creds")
                .endMetadata().addToStringData("username", LocalGitServer.USER)
                .addToStringData("password", LocalGitServer.PASSWORD).build()).create();
        git.createRepo(ns);
        GitWorkdir work = git.clone(ns);
        for (int i = 0; i < FILES; i++) {
            work.write("cm-" + i + ".yaml", configMap(i, String.valueOf(i)));
        }
        work.commitAndPush(FILES + " ConfigMaps");
        String yaml = """
                apiVersion: rekon.dev/v1alpha1
                kind: DeclaredState
                metadata: {name: apps, namespace: NS}
                spec:
                  git: {url: "URL", branch: main, secretRef: {name: git-creds}}
                  namespaces: [NS]
                """.replace("NS", ns).replace("URL", git.url(ns));
        admin.resource(Serialization.unmarshal(yaml, GenericKubernetesResource.class)).create();
        return work;
    }

    private static String configMap(int i, String value) {
        return "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm-" + i + "\ndata:\n  value: \"" + value + "\"\n";
    }

    /** Records the value of every write to a ConfigMap a DeclaredState applied, by namespace/name. */
    private Watch watchConfigMaps(Map<String, List<String>> writes) {
        return admin.configMaps().inAnyNamespace().withLabel("rekon.dev/declared-state").watch(new Watcher<>() {
            @Override
            public void eventReceived(Action action, ConfigMap c) {
                if (action != Action.DELETED) {
                    writes.computeIfAbsent(c.getMetadata().getNamespace() + "/" + c.getMetadata().getName(),
                            n -> java.util.Collections.synchronizedList(new ArrayList<>()))
                            .add(c.getData() == null ? null : c.getData().get("value"));
                }
            }

            @Override
            public void onClose(WatcherException cause) {
            }
        });
    }

    static final String ROLLOUTS = "{\"scope\": \"rollouts\", \"namespace\": \"" + NS + "\"}";

    private static Poster.Answer pass(Poster poster, String data, int keys) {
        return pass(poster, data, keys, java.util.UUID.randomUUID().toString());
    }

    /** Posts a pass as the event {@code id}; answers once the broker has delivered its {@code keys} events. */
    private static Poster.Answer pass(Poster poster, String data, int keys, String id) {
        int before = broker.accepted();
        Poster.Answer answer = poster.send(java.net.http.HttpRequest.newBuilder(poster.root())
                .timeout(Duration.ofSeconds(60)).header("ce-specversion", "1.0").header("ce-id", id)
                .header("ce-source", "test").header("ce-type", PASS).header("Content-Type", "application/json")
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString(data)).build());
        Await.until("the pass's events delivered", Duration.ofSeconds(60),
                () -> broker.accepted() >= before + keys && broker.idle());
        return answer;
    }

    private boolean allAt(long build) {
        List<Deployment> ds = admin.apps().deployments().inNamespace(NS).list().getItems();
        return ds.size() == DEPLOYS && ds.stream().allMatch(d -> Poster.buildOf(image(d)) == build);
    }

    private static String image(Deployment d) {
        return d.getSpec().getTemplate().getSpec().getContainers().get(0).getImage();
    }

    /** Records the build of every write to a Deployment of the namespace (an unchanged write makes no event). */
    private Watch watchDeployments(Map<String, List<Long>> seen) {
        String from = admin.apps().deployments().inNamespace(NS).list().getMetadata().getResourceVersion();
        return admin.apps().deployments().inNamespace(NS).withResourceVersion(from).watch(new Watcher<>() {
            @Override
            public void eventReceived(Action action, Deployment d) {
                seen.computeIfAbsent(d.getMetadata().getName(), n -> java.util.Collections.synchronizedList(
                        new ArrayList<>())).add(Poster.buildOf(image(d)));
            }

            @Override
            public void onClose(WatcherException cause) {
            }
        });
    }

    /** The reconcile events a process answered applied, from its /q/metrics. */
    private static long appliedKeys(App app) {
        return metric(app, "rekon_events_total", "type=\"" + KEY_TYPE + "\"", "outcome=\"applied\"");
    }

    private static long fannedOut(App app, String area) {
        return metric(app, "rekon_resync_fanout_sent_total", "area=\"" + area + "\"", "outcome=\"sent\"");
    }

    private static long metric(App app, String name, String... labels) {
        Poster.Answer m = new Poster(app.port()).send(java.net.http.HttpRequest.newBuilder(
                java.net.URI.create("http://127.0.0.1:" + app.port() + "/q/metrics")).GET().build());
        long sum = 0;
        for (String line : m.body().split("\n")) {
            if (line.startsWith(name + "{") && java.util.Arrays.stream(labels).allMatch(line::contains)) {
                sum += (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return sum;
    }

    private void imageDeploy(String name, String image) {
        GenericKubernetesResource idp = Serialization.unmarshal("""
                {"apiVersion": "rekon.dev/v1alpha1", "kind": "ImageDeploy",
                 "metadata": {"name": "%s", "namespace": "%s"},
                 "spec": {"deployment": {"spec": {"replicas": 1, "selector": {"matchLabels": {"app": "%s"}},
                   "template": {"metadata": {"labels": {"app": "%s"}},
                     "spec": {"containers": [{"name": "web", "image": "REF=%s"}]}}}}}}
                """.formatted(name, NS, name, name, image), GenericKubernetesResource.class);
        admin.genericKubernetesResources(Kpack.IMAGE_DEPLOYS).inNamespace(NS).resource(idp).createOr(r -> r.update());
    }

    private static App start(Path appDir, String name, SpreadingBroker broker) {
        App app = App.start(SharedFiles.projectDir(), appDir, Map.of(), LocalCluster.get().kubeconfigFile(),
                OUT.resolve("rekon-" + name + ".log"), "rekon.cluster-scoped=true", "rekon.resync.on-start=false",
                "rekon.resync.fanout-sink=" + broker.url(), "rekon.declared.cache-dir=" + OUT.resolve("git-" + name));
        Poster poster = new Poster(app.port());
        Await.until("the application to answer", Duration.ofSeconds(120),
                () -> poster.event("dev.rekon.image.built", Map.of(), "{}").status() == 400);
        return app;
    }
}
