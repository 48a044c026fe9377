package dev.rekon.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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
 * The resync figures of {@code hack/bench.sh}: N ImageDeploys (default 10,000) spread over S namespaces (default
 * 100), each namespace with 100/P kpack Images; a pass over them converged, its duration, the API calls it made
 * (0 writes, no GET per object) and Rekon's CPU; then one Image per namespace reports a build no event announced,
 * so P % of the ImageDeploys (default 10: 1,000 of 10,000) are a build behind, and one pass must roll out exactly
 * those; then the converged pass after it (0 writes), and a raw PATCH loop of the same Deployments beside it. Each
 * pass also says which of its Deployment writes, status writes and Events went out before its reply (the part of
 * them its duration includes), and the pass that rolls out whether the client's own QPS/burst limit held any back.
 * Arguments: ImageDeploys, the percentage a build behind, namespaces. With {@code REKON_BENCH_FLEET_DECLARED}
 * above 0 the same process then watches as many DeclaredStates too, for the peak RSS ({@link FleetRss}).
 */
public final class ResyncBench {

    static final String NS = "bench-resync";

    private final KubernetesClient admin;
    private final App app;
    private final Poster poster;
    private final List<String> namespaces = new ArrayList<>();

    ResyncBench(KubernetesClient admin, App app, int namespaces) {
        this.admin = admin;
        this.app = app;
        this.poster = new Poster(app.port());
        for (int s = 0; s < namespaces; s++) {
            this.namespaces.add(namespaces == 1 ? NS : NS + "-" + s);
        }
    }

    public static void main(String[] args) throws Exception {
        int total = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        int behindPercent = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        int spread = args.length > 2 ? Integer.parseInt(args[2]) : 100;
        int declared = Integer.parseInt(System.getenv().getOrDefault("REKON_BENCH_FLEET_DECLARED", "0"));
        Path project = SharedFiles.projectDir();
        Path out = project.resolve("target/bench");
        Files.createDirectories(out);
        LocalCluster cluster = LocalCluster.get();
        App app = App.start(project, cluster.kubeconfigFile(), out.resolve("rekon-resync.log"), "rekon.resync.on-start=false",
                "rekon.declared.cache-dir=" + out.resolve("resync-git-cache-" + System.nanoTime()));
        int code = 0;
        try {
            ResyncBench bench = new ResyncBench(cluster.adminClient(), app, Math.max(1, Math.min(spread, total)));
            bench.run(total, behindPercent);
            if (declared > 0) {
                new FleetRss(cluster.adminClient(), app, bench.poster).run(total, bench.namespaces, declared);
            }
        } catch (Exception | Error e) {
            e.printStackTrace();
            code = 1;
        }
        app.stop();
        System.exit(code);
    }

    void run(int total, int behindPercent) throws Exception {
        int perNs = Math.max(1, total / namespaces.size());
        // One Image per namespace goes a build behind: P % of each namespace's ImageDeploys reference it.
        int images = Math.max(1, Math.min(perNs, 100 / Math.max(1, behindPercent)));
        ExecutorService pool = Executors.newFixedThreadPool(16);
        for (String ns : namespaces) {
            pool.submit(() -> {
                Kpack.namespace(admin, ns);
                for (int i = 0; i < images; i++) {
                    Kpack.built(admin, ns, "img-" + i, Poster.digest("r/" + ns + "/img-" + i, 1), 1);
                }
            });
        }
        pool.shutdown();
        pool.awaitTermination(60, TimeUnit.MINUTES);
        pool = Executors.newFixedThreadPool(16);
        List<String[]> behind = new ArrayList<>();
        for (int n = 0; n < total; n++) {
            String ns = namespaces.get(n % namespaces.size());
            int image = (n / namespaces.size()) % images;
            String name = "app-" + n;
            if (image == 0) {
                behind.add(new String[] { ns, name });
            }
            pool.submit(() -> Bench.imageDeploy(admin, ns, name, "img-" + image, name));
        }
        pool.shutdown();
        pool.awaitTermination(60, TimeUnit.MINUTES);
        while (poster.event("dev.rekon.image.built", Map.of(), "{}").status() != 400) {
            SecondApiServer.sleep(100);
        }
        System.out.printf("[bench] %,d ImageDeploys in %d namespaces, %d Images each; %s%n", total, namespaces.size(),
                images, load());
        long t0 = System.nanoTime();
        // The first passes create every Deployment and write every status; repeat until one changes nothing.
        for (int pass = 1; !resync().body().contains("\"outcome\":\"unchanged\""); pass++) {
            System.out.printf("[bench] resync pass %d converging (%.0f s)%n", pass, (System.nanoTime() - t0) / 1e9);
            SecondApiServer.sleep(2000);
        }
        System.out.printf("[bench] converged after %.0f s; %s%n", (System.nanoTime() - t0) / 1e9, load());
        Writes.settled(admin, namespaces);
        row("converged", total, 0, measure());

        pool = Executors.newFixedThreadPool(16);
        for (String ns : namespaces) {
            pool.submit(() -> Kpack.built(admin, ns, "img-0", Poster.digest("r/" + ns + "/img-0", 2), 2));
        }
        pool.shutdown();
        pool.awaitTermination(10, TimeUnit.MINUTES);
        SecondApiServer.sleep(2000);
        String limited = rateLimited();
        Figure pass = measure();
        row(behind.size() + " a build behind (" + behindPercent + " %, events lost)", total, behind.size(), pass);
        System.out.printf("| the client's QPS/burst limit, before / after the pass that rolls out (requests held "
                + "back, seconds) | %s / %s |%n", limited, rateLimited());
        Figure after = measure();
        row("converged after", total, 0, after);
        double raw = rawPatchLoop(behind);
        System.out.printf("| raw PATCH loop of the same %,d Deployments (one after the other, one warm client, no "
                + "reads) | %.0f ms; the pass took **%.2f×** (goal ≤ 1.5×) |%n", behind.size(), raw, pass.millis() / raw);
        System.out.printf("| converged pass after the rollout: **writes** | **%d** (goal 0) |%n", after.objectWrites());
        System.out.printf("| peak RSS of the application (VmHWM) after the passes | %.0f MiB |%n", app.peakRssMiB());
        System.out.printf("[bench] %s%n", load());
    }

    /** What the application's client-side rate limit held back so far, from its metrics. */
    private String rateLimited() {
        String metrics = poster.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(poster.root()
                + "q/metrics")).GET().build()).body();
        java.util.regex.Matcher m = java.util.regex.Pattern.compile(
                "(?m)^rekon_api_rate_limited(_seconds)?_total(?:\\{[^}]*})? ([0-9.E+-]+)$").matcher(metrics);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            out.append(out.isEmpty() ? "" : ", ").append(m.group(1) == null ? "" : "seconds ").append(m.group(2));
        }
        return out.isEmpty() ? "not reported" : out.toString();
    }

    static String load() {
        try {
            return "load average " + Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (java.io.IOException e) {
            return "load average unknown";
        }
    }

    /** What a careful client does for the same Deployments: one strategic-merge PATCH each, in turn, no GET. */
    private double rawPatchLoop(List<String[]> deployments) {
        try (KubernetesClient raw = new io.fabric8.kubernetes.client.KubernetesClientBuilder()
                .withConfig(admin.getConfiguration()).build()) {
            Map<String, RawPatches> byNs = new TreeMap<>();
            namespaces.forEach(ns -> byNs.put(ns, new RawPatches(admin, raw, ns)));
            byNs.get(deployments.get(0)[0]).patch(deployments.get(0)[1]); // warm: connection, TLS, the client's classes
            long t0 = System.nanoTime();
            deployments.forEach(d -> byNs.get(d[0]).patch(d[1]));
            return (System.nanoTime() - t0) / 1e6;
        }
    }

    /** One pass of the rollouts area over every namespace, as a PingSource's tick starts it. */
    Poster.Answer resync() {
        return poster.pass("rollouts");
    }

    /** {@code atReply}: the calls already made when the pass replied (the rest, Events and status writes, after). */
    private record Figure(double millis, double cpuMillis, Map<String, Double> calls, Map<String, Double> atReply,
            int objectWrites) {
    }

    private Figure measure() {
        Writes before = Writes.count(admin, namespaces);
        Map<String, Double> callsBefore = ApiCalls.read(poster);
        double cpu0 = Cpu.millis(app.pid());
        long t0 = System.nanoTime();
        resync();
        double millis = (System.nanoTime() - t0) / 1e6;
        double cpu = Cpu.millis(app.pid()) - cpu0;
        Map<String, Double> atReply = grown(callsBefore, ApiCalls.read(poster));
        Writes after = Writes.settled(admin, namespaces);
        return new Figure(millis, cpu, grown(callsBefore, ApiCalls.read(poster)), atReply,
                after.objectWritesSince(before));
    }

    private static Map<String, Double> grown(Map<String, Double> before, Map<String, Double> now) {
        Map<String, Double> calls = new TreeMap<>();
        now.forEach((k, v) -> {
            double d = v - before.getOrDefault(k, 0.0);
            if (d > 0 && !k.endsWith(" seconds")) {
                calls.put(k, d);
            }
        });
        return calls;
    }

    /** The calls of the methods {@code methods} matches on resources ending in {@code resource} (every status). */
    private static double sum(Map<String, Double> calls, String methods, String resource) {
        return calls.entrySet().stream().filter(e -> e.getKey().split(" ")[0].matches(methods)
                && e.getKey().split(" ")[1].endsWith(resource)).mapToDouble(Map.Entry::getValue).sum();
    }

    private void row(String what, int total, int drifted, Figure f) {
        double deploymentWrites = f.calls().entrySet().stream()
                .filter(e -> e.getKey().matches("(PATCH|POST|PUT|DELETE) apps/deployments .*"))
                .mapToDouble(Map.Entry::getValue).sum();
        double gets = f.calls().entrySet().stream().filter(e -> e.getKey().startsWith("GET "))
                .mapToDouble(Map.Entry::getValue).sum();
        System.out.printf("| resync of %,d ImageDeploys in %d namespaces, %s: duration / Rekon CPU | %.0f ms / %.0f ms |%n",
                total, namespaces.size(), what, f.millis(), f.cpuMillis());
        System.out.printf("| resync, %s: API calls by the pass (method resource status: count) | %s |%n", what,
                f.calls().isEmpty() ? "none" : f.calls().toString());
        System.out.printf("| resync, %s: **Deployment writes / drifted**; GETs; all object writes and Events | "
                + "**%.0f / %d**; %.0f; %d |%n", what, deploymentWrites, drifted, gets, f.objectWrites());
        System.out.printf("| resync, %s: of its Deployment writes, status writes and Events, sent before the pass's "
                + "reply (in its duration) | %.0f of %.0f; %.0f of %.0f; %.0f of %.0f |%n", what,
                sum(f.atReply(), "PATCH", "apps/deployments"), sum(f.calls(), "PATCH", "apps/deployments"),
                sum(f.atReply(), "PUT|PATCH", "imagedeploys/status"),
                sum(f.calls(), "PUT|PATCH", "imagedeploys/status"),
                sum(f.atReply(), "POST", "events"), sum(f.calls(), "POST", "events"));
    }
}
