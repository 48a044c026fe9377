package dev.rekon.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import dev.rekon.testing.Kpack;
import dev.rekon.testing.LocalCluster;
import dev.rekon.testing.SharedFiles;
import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * The resync figures of {@code hack/bench.sh}: a pass over N converged ImageDeploys (default 10,000, each
 * referencing one of 100 kpack Images), its duration, the API calls it made (0 writes, no GET per object) and
 * Rekon's CPU; then the same with 1% drifted (one Image reports a build no event announced), where the
 * Deployment writes must equal the drifted ImageDeploys; then the converged pass after it, and a raw PATCH loop of
 * the same Deployments beside it. Arguments: ImageDeploys (default 10000), the percentage a build behind
 * (default 1).
 */
public final class ResyncBench {

    static final String NS = "bench-resync";

    private final KubernetesClient admin;
    private final App app;
    private final Poster poster;

    ResyncBench(KubernetesClient admin, App app) {
        this.admin = admin;
        this.app = app;
        this.poster = new Poster(app.port());
    }

    public static void main(String[] args) throws Exception {
        int total = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        int behindPercent = args.length > 1 ? Integer.parseInt(args[1]) : 1;
        Path project = SharedFiles.projectDir();
        Path out = project.resolve("target/bench");
        Files.createDirectories(out);
        LocalCluster cluster = LocalCluster.get();
        App app = App.start(project, cluster.kubeconfigFile(), out.resolve("rekon-resync.log"), "rekon.resync.on-start=false");
        try {
            new ResyncBench(cluster.adminClient(), app).run(total, behindPercent);
        } catch (Exception | Error e) {
            e.printStackTrace();
            app.stop();
            System.exit(1);
        }
        app.stop();
        System.exit(0);
    }

    void run(int total, int behindPercent) throws Exception {
        int images = Math.min(100, total);
        Kpack.namespace(admin, NS);
        for (int i = 0; i < images; i++) {
            Kpack.built(admin, NS, "img-" + i, Poster.digest("r/img-" + i, 1), 1);
        }
        ExecutorService pool = Executors.newFixedThreadPool(16);
        for (int n = 0; n < total; n++) {
            int i = n;
            pool.submit(() -> Bench.imageDeploy(admin, NS, "app-" + i, "img-" + (i % images), "app-" + i));
        }
        pool.shutdown();
        pool.awaitTermination(60, TimeUnit.MINUTES);
        while (poster.event("dev.rekon.image.built", Map.of(), "{}").status() != 400) {
            SecondApiServer.sleep(100);
        }
        long t0 = System.nanoTime();
        // The first passes create every Deployment and write every status; repeat until one changes nothing.
        for (int pass = 1; !resync().body().contains("\"outcome\":\"unchanged\""); pass++) {
            System.out.printf("[bench] resync pass %d converging (%.0f s)%n", pass, (System.nanoTime() - t0) / 1e9);
            SecondApiServer.sleep(2000);
        }
        Writes.settled(admin, NS);
        row("converged", total, 0, measure(total));

        // The ImageDeploys of the first Images (i % images < rebuilt) are a build behind, as if the events were lost.
        int rebuilt = Math.max(1, images * behindPercent / 100);
        java.util.List<String> behind = new java.util.ArrayList<>();
        for (int n = 0; n < total; n++) {
            if (n % images < rebuilt) {
                behind.add("app-" + n);
            }
        }
        for (int i = 0; i < rebuilt; i++) {
            Kpack.built(admin, NS, "img-" + i, Poster.digest("r/img-" + i, 2), 2);
        }
        SecondApiServer.sleep(2000);
        Figure pass = measure(total);
        row(behindPercent + "% a build behind", total, behind.size(), pass);
        row("converged after", total, 0, measure(total));
        double raw = rawPatchLoop(behind);
        System.out.printf("| raw PATCH loop of the same %,d Deployments (one after the other, one warm client, no "
                + "reads) | %.0f ms; the pass took **%.2f×** |%n", behind.size(), raw, pass.millis() / raw);
        System.out.printf("[bench] machine load: %s%n", java.nio.file.Files.readString(Path.of("/proc/loadavg")).trim());
    }

    /** What a careful client does for the same Deployments: one strategic-merge PATCH each, in turn, no GET. */
    private double rawPatchLoop(java.util.List<String> deployments) {
        try (KubernetesClient raw = new io.fabric8.kubernetes.client.KubernetesClientBuilder()
                .withConfig(admin.getConfiguration()).build()) {
            RawPatches patches = new RawPatches(admin, raw, NS);
            patches.patch(deployments.get(0)); // warm: connection, TLS and the client's own classes
            long t0 = System.nanoTime();
            deployments.forEach(patches::patch);
            return (System.nanoTime() - t0) / 1e6;
        }
    }

    private Poster.Answer resync() {
        // A pass that creates thousands of Deployments outlasts the poster's 30 s timeout for events.
        Poster.Answer a = poster.send(java.net.http.HttpRequest.newBuilder(poster.root())
                .timeout(java.time.Duration.ofMinutes(30)).header("ce-specversion", "1.0")
                .header("ce-id", java.util.UUID.randomUUID().toString()).header("ce-source", "bench")
                .header("ce-type", "dev.rekon.resync").header("Content-Type", "application/json")
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString(
                        "{\"scope\":\"rollouts\",\"namespace\":\"" + NS + "\"}")).build());
        if (a.status() != 200) {
            throw new IllegalStateException("resync answered " + a.status() + ": " + a.body());
        }
        return a;
    }

    private record Figure(double millis, double cpuMillis, Map<String, Double> calls, int objectWrites) {
    }

    private Figure measure(int total) {
        Writes before = Writes.count(admin, NS);
        Map<String, Double> callsBefore = ApiCalls.read(poster);
        double cpu0 = Cpu.millis(app.pid());
        long t0 = System.nanoTime();
        resync();
        double millis = (System.nanoTime() - t0) / 1e6;
        double cpu = Cpu.millis(app.pid()) - cpu0;
        Writes after = Writes.settled(admin, NS);
        Map<String, Double> calls = new TreeMap<>();
        ApiCalls.read(poster).forEach((k, v) -> {
            double d = v - callsBefore.getOrDefault(k, 0.0);
            if (d > 0 && !k.endsWith(" seconds")) {
                calls.put(k, d);
            }
        });
        return new Figure(millis, cpu, calls, after.objectWritesSince(before));
    }

    private static void row(String what, int total, int drifted, Figure f) {
        double deploymentWrites = f.calls().entrySet().stream()
                .filter(e -> e.getKey().matches("(PATCH|POST|PUT|DELETE) apps/deployments .*"))
                .mapToDouble(Map.Entry::getValue).sum();
        double gets = f.calls().entrySet().stream().filter(e -> e.getKey().startsWith("GET "))
                .mapToDouble(Map.Entry::getValue).sum();
        System.out.printf("| resync of %,d ImageDeploys, %s: duration / Rekon CPU | %.0f ms / %.0f ms |%n", total, what,
                f.millis(), f.cpuMillis());
        System.out.printf("| resync, %s: API calls by the pass (method resource status: count) | %s |%n", what,
                f.calls().isEmpty() ? "none" : f.calls().toString());
        System.out.printf("| resync, %s: **Deployment writes / drifted**; GETs; all object writes and Events | "
                + "**%.0f / %d**; %.0f; %d |%n", what, deploymentWrites, drifted, gets, f.objectWrites());
    }
}
