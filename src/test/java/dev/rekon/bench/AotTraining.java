package dev.rekon.bench;

import java.io.IOException;
import java.net.http.HttpRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;

import dev.rekon.packaging.DocumentedEvents;
import dev.rekon.testing.Kpack;
import dev.rekon.testing.LocalCluster;
import dev.rekon.testing.SharedFiles;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * The AOT cache's training run behind {@code hack/aot-cache.sh}: the packaged application, started by
 * {@code hack/start.sh} with {@code REKON_AOT=record}, handles events against the real apiserver — rollouts that
 * create and patch a Deployment, an ImageDeploy change, an Image not yet built, and every sample event of the
 * README and docs (one per function at least) — and then stops, so that the JVM writes the cache of what it
 * loaded and linked on those first-event paths: {@code target/quarkus-app/rekon.aot}. {@link ImageAot} runs the
 * same training in an unpacked container image, with the image's JVM and files.
 */
public final class AotTraining {

    static final String NS = "aot-training";

    /** Starts the application to train, with {@code REKON_AOT=record} in {@code env}. */
    @FunctionalInterface
    public interface Start {
        App start(Map<String, String> env, Path kubeconfig, Path log) throws Exception;
    }

    public static void main(String[] args) throws Exception {
        Path project = SharedFiles.projectDir();
        Path out = Files.createDirectories(project.resolve("target/aot"));
        int handled = train((env, kubeconfig, log) -> App.start(project, env, kubeconfig, log), out);
        Path cache = project.resolve("target/quarkus-app/rekon.aot");
        System.exit(report(handled, cache, out) ? 0 : 1);
    }

    /** The training run: starts the application, handles the events, stops it; returns the events answered. */
    public static int train(Start how, Path out) throws Exception {
        LocalCluster cluster = LocalCluster.get();
        KubernetesClient admin = cluster.adminClient();
        Kpack.namespace(admin, NS);
        GenericKubernetesResource image = Kpack.built(admin, NS, "img", Poster.digest("r/img", 0), 0);
        Bench.imageDeploy(admin, NS, "app", "img", "app");
        App app = how.start(Map.of("REKON_AOT", "record"), cluster.kubeconfigFile(), out.resolve("rekon.log"));
        try {
            return handleEvents(app, image.getMetadata().getUid());
        } finally {
            app.stop();
        }
    }

    /** Says what the training left; true when the cache is there. */
    public static boolean report(int handled, Path cache, Path out) throws IOException {
        System.out.printf("[aot] %d events answered 2xx/4xx; cache %s (%s)%n", handled, cache,
                Files.isRegularFile(cache) ? Files.size(cache) / (1 << 20) + " MiB" : "missing, see " + out);
        return Files.isRegularFile(cache);
    }

    private static int handleEvents(App app, String uid) throws InterruptedException {
        Poster poster = new Poster(app.port());
        Bench.awaitFirstAnswer(app, poster);
        int handled = 0;
        for (int build = 1; build <= 40; build++) {
            handled += count(poster.event(Bench.UPDATE, Poster.image(NS, "img"),
                    Poster.imageObject(NS, "img", Poster.digest("r/img", build), build, uid)));
        }
        handled += count(poster.event("dev.knative.apiserver.ref.update", Map.of("apiversion", "rekon.dev/v1alpha1",
                "kind", "ImageDeploy", "namespace", NS, "name", "app"), "{\"kind\":\"ImageDeploy\",\"namespace\":\""
                + NS + "\",\"name\":\"app\",\"apiVersion\":\"rekon.dev/v1alpha1\"}"));
        for (DocumentedEvents.Sample s : DocumentedEvents.all()) {
            handled += count(post(poster, s));
        }
        // Leave the report queue and the watches a moment, so their first runs are recorded too.
        Thread.sleep(2_000);
        return handled;
    }

    private static int count(Poster.Answer a) {
        return a.status() >= 200 && a.status() < 500 ? 1 : 0;
    }

    private static Poster.Answer post(Poster poster, DocumentedEvents.Sample s) {
        HttpRequest.Builder b = HttpRequest.newBuilder(poster.root()).timeout(Duration.ofSeconds(30));
        if (s.structured()) {
            b.header("Content-Type", "application/cloudevents+json");
        } else {
            b.header("Content-Type", "application/json").header("ce-specversion", "1.0")
                    .header("ce-id", UUID.randomUUID().toString()).header("ce-source", "aot-training");
            s.attributes().forEach((k, v) -> {
                if (!k.equals("id") && !k.equals("source") && !k.equals("specversion")) {
                    b.header("ce-" + k, v);
                }
            });
        }
        return poster.send(b.POST(HttpRequest.BodyPublishers.ofString(s.data() == null ? "{}" : s.data())).build());
    }
}
