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

import org.junit.jupiter.api.Test;

import dev.rekon.testing.Await;
import dev.rekon.testing.Kpack;
import dev.rekon.testing.LocalCluster;
import dev.rekon.testing.ProjectCopy;
import dev.rekon.testing.SharedFiles;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
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
 */
class FanoutTwoProcessesTest {

    static final String NS = "fanout-e2e";
    static final int IMAGES = 4;
    static final int DEPLOYS = 40;
    static final String PASS = "dev.rekon.resync";
    static final String KEY_TYPE = "dev.knative.apiserver.ref.update";

    final KubernetesClient admin = LocalCluster.get().adminClient();
    final Path out = SharedFiles.projectDir().resolve("target/fanout-two-processes");

    @Test
    void twoProcessesShareOneFannedOutPassAndWriteEachDeploymentOnce() throws Exception {
        Path appDir = ProjectCopy.packagedApp();
        Files.createDirectories(out);
        Kpack.namespace(admin, NS);
        for (int i = 0; i < IMAGES; i++) {
            Kpack.built(admin, NS, "img-" + i, Poster.digest("registry.local/fanout/img-" + i, 1), 1);
        }
        for (int j = 0; j < DEPLOYS; j++) {
            imageDeploy("app-" + j, "img-" + (j % IMAGES));
        }
        try (SpreadingBroker broker = new SpreadingBroker()) {
            App a = start(appDir, "a", broker);
            App b = start(appDir, "b", broker);
            try {
                broker.deliverTo(a.port(), b.port());
                Poster toA = new Poster(a.port());

                Poster.Answer first = pass(toA, broker);
                assertEquals(200, first.status(), first.body());
                assertTrue(first.body().contains(DEPLOYS + " sent to the fan-out sink"), first.body());
                Await.until("every Deployment at build 1", Duration.ofSeconds(60), () -> allAt(1));

                // Every build moves on while no event reaches Rekon: only a pass finds them.
                Map<String, List<Long>> seen = new ConcurrentHashMap<>();
                try (Watch watch = watchDeployments(seen)) {
                    for (int i = 0; i < IMAGES; i++) {
                        Kpack.built(admin, NS, "img-" + i, Poster.digest("registry.local/fanout/img-" + i, 2), 2);
                    }
                    Poster.Answer second = pass(toA, broker);
                    assertEquals(200, second.status(), second.body());
                    Await.until("every Deployment at build 2", Duration.ofSeconds(60), () -> allAt(2));

                    // A converged pass, delivered twice (the same event id): every key goes out, under the same ids
                    // both times, and nothing is written.
                    for (int i = 0; i < 2; i++) {
                        Poster.Answer converged = pass(toA, broker, "converged-pass");
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
                assertEquals(4 * DEPLOYS, fannedOut(a), "what the passes sent, and no key event sent on by a");
                assertEquals(0, fannedOut(b), "an event from the fan-out is worked where it lands, never sent on");
            } finally {
                a.stop();
                b.stop();
            }
        }
    }

    private Poster.Answer pass(Poster poster, SpreadingBroker broker) {
        return pass(poster, broker, java.util.UUID.randomUUID().toString());
    }

    /** Posts a pass of the rollouts in {@link #NS} as the event {@code id}; answers once the broker delivered its keys. */
    private Poster.Answer pass(Poster poster, SpreadingBroker broker, String id) {
        int before = broker.accepted();
        Poster.Answer answer = poster.send(java.net.http.HttpRequest.newBuilder(poster.root())
                .timeout(Duration.ofSeconds(60)).header("ce-specversion", "1.0").header("ce-id", id)
                .header("ce-source", "test").header("ce-type", PASS).header("Content-Type", "application/json")
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString("{\"scope\": \"rollouts\", \"namespace\": \""
                        + NS + "\"}")).build());
        Await.until("the pass's events delivered", Duration.ofSeconds(60),
                () -> broker.accepted() >= before + DEPLOYS && broker.idle());
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

    private static long fannedOut(App app) {
        return metric(app, "rekon_resync_fanout_sent_total", "outcome=\"sent\"");
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

    private App start(Path appDir, String name, SpreadingBroker broker) {
        App app = App.start(SharedFiles.projectDir(), appDir, Map.of(), LocalCluster.get().kubeconfigFile(),
                out.resolve("rekon-" + name + ".log"), "rekon.cluster-scoped=true", "rekon.resync.on-start=false",
                "rekon.resync.fanout-sink=" + broker.url());
        Poster poster = new Poster(app.port());
        Await.until("the application to answer", Duration.ofSeconds(120),
                () -> poster.event("dev.rekon.image.built", Map.of(), "{}").status() == 400);
        return app;
    }
}
