package dev.rekon.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import dev.rekon.testing.Kpack;
import dev.rekon.testing.LocalCluster;
import dev.rekon.testing.SharedFiles;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.vertx.core.json.JsonObject;

/**
 * The cold part of {@code hack/bench.sh}: what a process scaled from zero costs. With N ImageDeploys in the
 * cluster (N/10 in each of 10 namespaces, the event's among them), five fresh processes started by
 * {@code hack/start.sh} with the Service's sizing ({@code -XX:MaxRAM=512m}): process start → first Image event
 * answered {@code applied}, the peak RSS (VmHWM) at that moment, and the first 100 events' reply p50 against
 * raw PATCHes sent in between by this (warm) client, with no warm-up; then a burst of 4,000 events at 8 in flight
 * on a fresh process, with its peak RSS. Prints a markdown table and writes {@code target/bench/cold.json}.
 */
public final class ColdBench {

    static final String NS = "bench-cold";
    static final int STARTS = 5;
    static final int FIRST_EVENTS = 100;
    static final int BURST = 4_000;
    static final int BURST_IN_FLIGHT = 8;

    final KubernetesClient admin;
    final RawPatches raw;
    final Path project;
    final Path out;
    final Path kubeconfig;
    final Map<String, AtomicLong> builds = new LinkedHashMap<>();
    final Map<String, String> uids = new LinkedHashMap<>();
    final Map<String, Object> results = new LinkedHashMap<>();
    final List<String> table = new ArrayList<>();

    ColdBench(LocalCluster cluster, Path project, Path out) throws Exception {
        this.admin = cluster.adminClient();
        KubernetesClient rawClient = new KubernetesClientBuilder()
                .withConfig(Config.fromKubeconfig(cluster.kubeconfigYaml())).build();
        this.raw = new RawPatches(admin, rawClient, NS);
        this.project = project;
        this.out = out;
        this.kubeconfig = cluster.kubeconfigFile();
    }

    public static void main(String[] args) throws Exception {
        int imageDeploys = args.length > 0 ? Integer.parseInt(args[0]) : 1_000;
        Path project = SharedFiles.projectDir();
        Path out = Files.createDirectories(project.resolve("target/bench"));
        ColdBench b = new ColdBench(LocalCluster.get(), project, out);
        try {
            b.populate(imageDeploys);
            b.firstEvents();
            b.burst();
        } catch (Exception | Error e) {
            e.printStackTrace();
            System.exit(1);
        }
        Files.writeString(out.resolve("cold.json"), new JsonObject(b.results).encodePrettily());
        System.out.println();
        b.table.forEach(System.out::println);
        System.out.println("\nwritten: target/bench/cold.json");
        System.exit(0);
    }

    /** The event's Image and ImageDeploy, the burst's eight, and the rest up to N in ten namespaces. */
    void populate(int total) throws Exception {
        for (int n = 0; n < 10; n++) {
            Kpack.namespace(admin, NS + "-" + n);
        }
        Kpack.namespace(admin, NS);
        imageWithDeploy("target");
        for (int w = 0; w < BURST_IN_FLIGHT; w++) {
            imageWithDeploy("burst-" + w);
        }
        raw.create("raw");
        ExecutorService pool = Executors.newFixedThreadPool(8);
        for (int i = 1 + BURST_IN_FLIGHT; i < total; i++) {
            int n = i;
            String ns = i % 10 == 0 ? NS : NS + "-" + i % 10;
            pool.submit(() -> Bench.imageDeploy(admin, ns, "other-" + n, "other-" + n, "other-" + n));
        }
        pool.shutdown();
        pool.awaitTermination(30, TimeUnit.MINUTES);
        results.put("imagedeploys", total);
    }

    void imageWithDeploy(String name) {
        uids.put(name, Kpack.built(admin, NS, name, Poster.digest("r/" + name, 0), 0).getMetadata().getUid());
        builds.put(name, new AtomicLong());
        Bench.imageDeploy(admin, NS, name, name, name);
    }

    /** Five fresh processes: start → first event applied, RSS then, and the first 100 events against raw PATCHes. */
    void firstEvents() throws Exception {
        List<Double> firsts = new ArrayList<>();
        List<Double> rss = new ArrayList<>();
        List<Double> cpu = new ArrayList<>();
        List<Double> ratios = new ArrayList<>();
        List<Double> eventCpu = new ArrayList<>();
        List<Map<String, Double>> byThread = new ArrayList<>();
        List<Map<String, Object>> runs = new ArrayList<>();
        for (int run = 0; run < STARTS; run++) {
            App app = App.start(project, kubeconfig, out.resolve("rekon-cold-" + run + ".log"));
            try {
                Poster poster = new Poster(app.port());
                Poster.Answer a;
                do {
                    a = post(poster, "target", builds.get("target").incrementAndGet());
                    if (!app.isAlive()) {
                        throw new IllegalStateException("the application exited; see target/bench/rekon-cold-" + run + ".log");
                    }
                } while (a.status() == 0 && sleep());
                double first = (System.nanoTime() - app.startedNanos()) / 1e6;
                double firstRss = app.peakRssMiB();
                double firstCpu = Cpu.millis(app.pid());
                Map<String, Double> threads = Cpu.byThread(app.pid());
                nativeMemory(app, run);
                Bench.require(a, "\"applied\"");
                Map<String, Object> m = firstHundred(poster, app.pid());
                m.put("start_to_first_event_ms", first);
                m.put("rss_at_first_event_mib", firstRss);
                m.put("cpu_ms_at_first_event", firstCpu);
                m.put("cpu_ms_by_thread_at_first_event", threads);
                byThread.add(threads);
                runs.add(m);
                firsts.add(first);
                rss.add(firstRss);
                cpu.add(firstCpu);
                ratios.add((Double) m.get("p50_ratio"));
                eventCpu.add((Double) m.get("cpu_ms_per_event"));
                System.out.printf("[cold] start %d: first event %.0f ms (CPU %.0f ms), RSS %.0f MiB, first %d events p50 "
                        + "%.2f×; CPU by thread %s%n", run + 1, first, firstCpu, firstRss, FIRST_EVENTS, m.get("p50_ratio"),
                        threads);
            } finally {
                app.stop();
            }
        }
        results.put("starts", runs);
        record("start_to_first_event_ms", median(firsts), "cold: process start → first Image event answered applied, "
                + "median of " + STARTS + " fresh processes", "%.0f ms");
        record("cpu_ms_at_first_event", median(cpu), "cold: CPU the process used until then (user + system; what "
                + "bounds the wall time on an idle machine), median", "%.0f ms");
        row("| cold: of that CPU, by thread (median ms; C1 CompilerThre = the JIT compiler, java = main) | "
                + threadMedians(byThread) + " |");
        record("rss_at_first_event_mib", median(rss), "cold: RSS (VmHWM) at the first event, median", "%.0f MiB");
        record("first_events_p50_ratio", median(ratios), "cold: first " + FIRST_EVENTS + " events' reply p50 / raw "
                + "PATCH p50 (no warm-up), median of the starts", "%.2f×");
        record("first_events_cpu_ms_per_event", median(eventCpu), "cold: the application's CPU per event over those "
                + FIRST_EVENTS + " (its JIT compiler and the writes after each reply included), median", "%.2f ms");
    }

    /** Events one at a time, each followed by a raw PATCH of the same change to another Deployment. */
    Map<String, Object> firstHundred(Poster poster, long pid) {
        double cpuBefore = Cpu.millis(pid);
        List<Double> rekon = new ArrayList<>();
        List<Double> patch = new ArrayList<>();
        int failed = 0;
        for (int i = 0; i < FIRST_EVENTS; i++) {
            long s = System.nanoTime();
            boolean ok = Bench.applied(post(poster, "target", builds.get("target").incrementAndGet()));
            rekon.add((System.nanoTime() - s) / 1e6);
            failed += ok ? 0 : 1;
            s = System.nanoTime();
            raw.patch("raw");
            patch.add((System.nanoTime() - s) / 1e6);
        }
        Stats r = Stats.of(rekon, 1);
        Stats p = Stats.of(patch, 1);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("rekon_reply_p50_ms", r.p(0.5));
        m.put("raw_patch_p50_ms", p.p(0.5));
        m.put("p50_ratio", r.p(0.5) / p.p(0.5));
        m.put("not_applied", failed);
        // What bounds the ratio: the application's CPU per event (its async status and Event writes included).
        m.put("cpu_ms_per_event", (Cpu.millis(pid) - cpuBefore) / FIRST_EVENTS);
        return m;
    }

    /** 4,000 events at 8 in flight on a fresh process: all must be 2xx; its throughput and peak RSS. */
    void burst() throws Exception {
        App app = App.start(project, kubeconfig, out.resolve("rekon-burst.log"));
        try {
            Poster poster = new Poster(app.port());
            Bench.awaitFirstAnswer(app, poster);
            Load.Result r = Load.run(BURST_IN_FLIGHT, BURST / BURST_IN_FLIGHT, (w, i) -> {
                int status = post(poster, "burst-" + w, builds.get("burst-" + w).incrementAndGet()).status();
                return status >= 200 && status < 300;
            });
            double peak = app.peakRssMiB();
            results.put("burst", Map.of("events", BURST, "not_2xx", r.failures(), "per_s", r.stats().throughput(),
                    "peak_rss_mib", peak, "p50_ms", r.stats().p(0.5), "p99_ms", r.stats().p(0.99)));
            row(String.format("| burst: %,d events at %d in flight on a fresh process: not 2xx / per s / p50 / p99 / "
                    + "**peak RSS** | %d / %.0f / %.1f ms / %.1f ms / **%.0f MiB** |", BURST, BURST_IN_FLIGHT,
                    r.failures(), r.stats().throughput(), r.stats().p(0.5), r.stats().p(0.99), peak));
        } finally {
            app.stop();
        }
    }

    Poster.Answer post(Poster poster, String image, long build) {
        return poster.event(Bench.UPDATE, Poster.image(NS, image),
                Poster.imageObject(NS, image, Poster.digest("r/" + image, build), build, uids.get(image)));
    }

    void record(String key, double value, String label, String format) {
        results.put(key, value);
        row("| " + label + " | " + String.format(format, value) + " |");
    }

    void row(String line) {
        table.add(line);
        System.out.println(line);
    }

    /** The six thread groups with the most CPU, each with its median over the starts. */
    static String threadMedians(List<Map<String, Double>> runs) {
        Map<String, List<Double>> groups = new LinkedHashMap<>();
        runs.forEach(r -> r.forEach((k, v) -> groups.computeIfAbsent(k, x -> new ArrayList<>()).add(v)));
        return groups.entrySet().stream()
                .map(e -> Map.entry(e.getKey(), median(e.getValue())))
                .sorted(Map.Entry.<String, Double>comparingByValue().reversed()).limit(6)
                .map(e -> String.format("%s %.0f", e.getKey(), e.getValue())).reduce((a, b) -> a + ", " + b).orElse("");
    }

    /** With {@code -Drekon.bench.nmt=true} (and the JVM option -XX:NativeMemoryTracking=summary): the JVM's own account. */
    static void nativeMemory(App app, int run) {
        if (!Boolean.getBoolean("rekon.bench.nmt")) {
            return;
        }
        String javaHome = System.getenv().getOrDefault("JAVA_HOME", System.getProperty("java.home"));
        try {
            new ProcessBuilder("bash", "-c", "\"$0\" $1 GC.heap_info; \"$0\" $1 VM.native_memory summary; \"$0\" $1 GC.class_histogram | head -45; \"$0\" $1 GC.heap_info",
                    javaHome + "/bin/jcmd", String.valueOf(app.pid())).redirectErrorStream(true).redirectOutput(SharedFiles.projectDir()
                            .resolve("target/bench/nmt-" + run + ".txt").toFile()).start().waitFor();
            Files.copy(Path.of("/proc/" + app.pid() + "/smaps"), SharedFiles.projectDir()
                    .resolve("target/bench/smaps-" + run + ".txt"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        } catch (java.io.IOException e) {
            System.out.println("[cold] jcmd: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static double median(List<Double> values) {
        return Stats.of(values, 1).p(0.5);
    }

    private static boolean sleep() {
        SecondApiServer.sleep(5);
        return true;
    }
}
