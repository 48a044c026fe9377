package dev.rekon.bench;

import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import dev.rekon.testing.Kpack;
import dev.rekon.testing.LocalCluster;
import dev.rekon.testing.SharedFiles;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.vertx.core.json.JsonObject;

/**
 * {@code GET /status} latency (until the whole body is received) with many ImageDeploys (default 10,000, 100 kpack Images between them), and the API
 * calls the application makes while answering (goal: under 200 ms, and 0). Started by {@code hack/bench.sh}; prints
 * markdown rows and writes {@code target/bench/status.json}.
 */
public final class StatusBench {

    static final String NS = "bench-status";
    static final int REQUESTS = 50;

    private StatusBench() {
    }

    public static void main(String[] args) throws Exception {
        int total = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        Path project = SharedFiles.projectDir();
        Path out = project.resolve("target/bench");
        Files.createDirectories(out);
        KubernetesClient admin = LocalCluster.get().adminClient();
        App app = App.start(project, LocalCluster.get().kubeconfigFile(), out.resolve("rekon-status.log"));
        int code = 0;
        try {
            run(admin, new Poster(app.port()), total, out);
        } catch (Exception | Error e) {
            e.printStackTrace();
            code = 1;
        }
        app.stop();
        System.exit(code); // the watches keep the JVM alive
    }

    static void run(KubernetesClient admin, Poster poster, int total, Path out) throws Exception {
        Kpack.namespace(admin, NS);
        for (int i = 0; i < 100; i++) {
            Kpack.built(admin, NS, "image-" + i, Poster.digest("r/image-" + i, 1), 1);
        }
        ExecutorService pool = Executors.newFixedThreadPool(16);
        long t0 = System.nanoTime();
        for (int i = 0; i < total; i++) {
            int n = i;
            pool.submit(() -> Bench.imageDeploy(admin, NS, "idp-" + n, "image-" + (n % 100), "idp-" + n));
        }
        pool.shutdown();
        pool.awaitTermination(30, TimeUnit.MINUTES);
        System.out.printf("[status-bench] created %d ImageDeploys in %.0f s%n", total, (System.nanoTime() - t0) / 1e9);
        long first = System.nanoTime();
        while (rollouts(poster) < total) {
            SecondApiServer.sleep(100);
        }
        double firstMs = (System.nanoTime() - first) / 1e6;
        for (int i = 0; i < 10; i++) {
            rollouts(poster); // warm-up
        }
        Map<String, Double> before = ApiCalls.read(poster);
        List<Double> millis = new ArrayList<>();
        long w0 = System.nanoTime();
        for (int i = 0; i < REQUESTS; i++) {
            long s = System.nanoTime();
            Poster.Answer a = poster.send(HttpRequest.newBuilder(URI.create(poster.root() + "status")).GET().build());
            millis.add((System.nanoTime() - s) / 1e6);
            if (a.status() != 200) {
                throw new IllegalStateException("GET /status answered " + a.status() + ": " + a.body());
            }
        }
        Stats stats = Stats.of(millis, (System.nanoTime() - w0) / 1e9);
        Map<String, Double> calls = ApiCalls.perEvent(before, ApiCalls.read(poster), REQUESTS);
        double perRequest = calls.values().stream().mapToDouble(Double::doubleValue).sum();
        Files.writeString(out.resolve("status.json"), new JsonObject(Map.of("image_deploys", total, "first_ms", firstMs,
                "p50_ms", stats.p(0.5), "p95_ms", stats.p(0.95), "max_ms", stats.p(1.0), "api_calls_per_request",
                perRequest)).encodePrettily());
        System.out.println("| figure | value | target |");
        System.out.println("|---|---|---|");
        System.out.printf("| `GET /status` with %,d ImageDeploys: p50 / p95 / max (first request, watches starting: %.0f ms) "
                + "| %.0f / %.0f / %.0f ms | < 200 ms |%n", total, firstMs, stats.p(0.5), stats.p(0.95), stats.p(1.0));
        System.out.printf("| API calls per `GET /status` (%d requests) | %.2f %s | 0 |%n", REQUESTS, perRequest,
                calls.isEmpty() ? "" : calls.toString());
    }

    /** How many ImageDeploys one {@code GET /status} reports. */
    static int rollouts(Poster poster) {
        Poster.Answer a = poster.send(HttpRequest.newBuilder(URI.create(poster.root() + "status")).GET().build());
        return a.status() == 200 ? new JsonObject(a.body()).getJsonObject("summary").getInteger("rollouts") : -1;
    }
}
