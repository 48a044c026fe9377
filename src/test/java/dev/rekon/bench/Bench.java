package dev.rekon.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
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
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.vertx.core.json.JsonObject;

/**
 * The benchmark behind {@code hack/bench.sh}: the real apiserver, the packaged application as a child process,
 * and bounded loads on 127.0.0.1. Prints a markdown table and writes {@code target/bench/results.json}.
 */
public final class Bench {

    static final String UPDATE = "dev.knative.apiserver.resource.update";
    static final String LAT = "bench-lat";
    static final String SCALE = "bench-scale";
    static final int[] CONCURRENCY = {1, 8, 32};
    static final int WARM_UP = 2_000;
    static final int WARM_UP_BATCHES = 15;

    final Map<String, Object> results = new LinkedHashMap<>();
    /** This run's kube-apiserver and etcd, whose CPU is counted beside the application's. */
    final List<Long> controlPlane;
    final List<String> table = new ArrayList<>();
    final KubernetesClient admin;
    final KubernetesClient raw;
    final App app;
    final Poster poster;
    final Map<String, String> uids = new HashMap<>();
    final Map<String, AtomicLong> builds = new HashMap<>();
    /** The raw PATCHes' image numbers, unique across the whole run so that the watch tells each apart. */
    final AtomicLong rawBuilds = new AtomicLong();
    /** The resourceVersion each raw Deployment had after its last write: the precondition of a guarded PATCH. */
    final Map<String, String> guardedVersions = new java.util.concurrent.ConcurrentHashMap<>();

    Bench(KubernetesClient admin, KubernetesClient raw, App app) {
        this.controlPlane = Cpu.controlPlane(admin.getMasterUrl().getPort());
        this.admin = admin;
        this.raw = raw;
        this.app = app;
        this.poster = new Poster(app.port());
    }

    public static void main(String[] args) throws Exception {
        int scaleTo = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        int buildpacks = args.length > 1 ? Integer.parseInt(args[1]) : 1_000;
        int builders = args.length > 2 ? Integer.parseInt(args[2]) : 500;
        Path project = SharedFiles.projectDir();
        Path out = project.resolve("target/bench");
        Files.createDirectories(out);
        LocalCluster cluster = LocalCluster.get();
        KubernetesClient admin = cluster.adminClient();
        Kpack.namespace(admin, "bench-start");
        KubernetesClient raw = new KubernetesClientBuilder().withConfig(Config.fromKubeconfig(cluster.kubeconfigYaml()))
                .build();
        // Without the start-up pass: begun by the first answered event, it would converge the ImageDeploys each part
        // creates before their own first event. ResyncBench measures passes.
        App app = App.start(project, cluster.kubeconfigFile(), out.resolve("rekon.log"), "rekon.resync.on-start=false");
        try {
            run(new Bench(admin, raw, app), out, scaleTo, buildpacks, builders);
        } catch (Exception | Error e) {
            // The application and the watches keep the JVM alive: a failed figure must still end the run.
            e.printStackTrace();
            app.stop();
            System.exit(1);
        }
        app.stop();
        raw.close();
        System.exit(0);
    }

    /**
     * The parts to measure: {@code -Drekon.bench.only} when given, else what {@code hack/bench.sh} selected (its
     * {@code only}, exported as {@code REKON_BENCH_ONLY}), else every warm part.
     */
    static List<String> parts(String property, String script) {
        for (String chosen : new String[] {property, script}) {
            if (chosen != null && !chosen.isBlank()) {
                return java.util.Arrays.stream(chosen.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
            }
        }
        return List.of("latency", "noop", "scale", "builders");
    }

    static void run(Bench b, Path out, int scaleTo, int buildpacks, int builders) throws Exception {
        App app = b.app;
        System.out.println("[bench] this run's apiserver and etcd (their CPU is counted): pids " + b.controlPlane);
        b.table.add("| figure | value |");
        b.table.add("|---|---|");
        b.startup();
        // A subset of the figures, to measure one part without the whole run; the no-op figure needs the latency one.
        List<String> only = parts(System.getProperty("rekon.bench.only"), System.getenv("REKON_BENCH_ONLY"));
        if (only.contains("latency")) {
            b.latency();
        }
        if (only.contains("noop")) {
            b.noOps();
        }
        double heap = HeapUse.afterFullGcMiB(app.pid());
        if (only.contains("scale")) {
            b.scale(scaleTo);
            heap = b.retained(heap, String.format("%,d ImageDeploys", scaleTo), "retained_mib_imagedeploys");
        }
        if (only.contains("builders")) {
            b.builders(out, buildpacks, 10, builders);
            b.retained(heap, String.format("%,d ClusterBuildpacks × 10 versions and %,d Builders", buildpacks, builders),
                    "retained_mib_builders");
        }
        double rss = app.peakRssMiB();
        b.record("peak_rss_mib", rss, "peak RSS of the application (VmHWM) after all loads", "%.0f MiB");
        b.results.put("machine", Map.of("cores", Runtime.getRuntime().availableProcessors(),
                "os", System.getProperty("os.name") + " " + System.getProperty("os.version"),
                "java", System.getProperty("java.version")));
        Files.writeString(out.resolve("results.json"), new JsonObject(b.results).encodePrettily());
        System.out.println();
        b.table.forEach(System.out::println);
        Path baseline = Baseline.file();
        if (baseline != null && b.results.get("latency") instanceof List<?> rows) {
            @SuppressWarnings("unchecked")
            List<Map<String, Object>> latency = (List<Map<String, Object>>) rows;
            Baseline.table(baseline, latency).forEach(System.out::println);
        }
        System.out.println("\nwritten: target/bench/results.json");
    }

    void row(String line) {
        table.add(line);
        System.out.println(line);
    }

    void record(String key, Object value, String label, String format) {
        results.put(key, value);
        row("| " + label + " | " + String.format(format, value) + " |");
    }

    /** JVM start to the first event answered 200 by a function. */
    void startup() {
        awaitFirstAnswer(app, poster);
        double ms = (System.nanoTime() - app.startedNanos()) / 1e6;
        record("jvm_start_to_first_event_ms", ms, "JVM start to first handled event", "%.0f ms");
    }

    /** Posts an Image event for a missing Image until a function answers it 200. */
    static void awaitFirstAnswer(App app, Poster poster) {
        while (poster.event(UPDATE, Poster.image("bench-start", "none"),
                Poster.imageObject("bench-start", "none", Poster.digest("r/none", 1), 1, "u")).status() != 200) {
            if (!app.isAlive()) {
                throw new IllegalStateException("the application exited; see its log under target/");
            }
            SecondApiServer.sleep(10);
        }
    }

    /** Records how much the live heap grew since {@code before} (MiB after a full GC), and returns it now. */
    double retained(double before, String what, String key) {
        double now = HeapUse.afterFullGcMiB(app.pid());
        record(key, now - before, "live heap after a full GC, growth with the watched views of " + what, "%.1f MiB");
        return now;
    }

    // --- (1) latency next to raw patches --------------------------------------------------------------

    void latency() throws Exception {
        Kpack.namespace(admin, LAT);
        for (int i = 0; i < 32; i++) {
            imageWithDeploy(LAT, "img-" + i, "app-" + i);
            createRawDeployment("raw-" + i);
            createRawDeployment("guarded-" + i);
        }
        for (int i = 0; i < 32; i++) {
            Poster.Answer a = post(LAT, "img-" + i);
            require(a, "DeploymentCreated");
        }
        // Warm both sides' JIT (the start-up figure covers a cold JVM): steady-state latency is what is compared.
        warmUntilCompiled();
        AtomicLong warm = new AtomicLong();
        Load.run(8, WARM_UP / 8, (w, i) -> rawPatch("raw-" + w, 1_000_000 + warm.incrementAndGet()));
        Load.run(8, WARM_UP / 8, (w, i) -> guardedPatch("guarded-" + w, 1_000_000 + warm.incrementAndGet()));
        List<Map<String, Object>> rows = new ArrayList<>();
        try (DeploymentVersions seen = DeploymentVersions.watch(admin, LAT)) {
            for (int c : CONCURRENCY) {
                rows.add(latencyAt(c, seen));
            }
        }
        results.put("latency", rows);
    }

    /**
     * One concurrency level. Each call is timed twice: until its reply (or PATCH response), and until a watch
     * on the namespace sees the Deployment with the new image: "patched" as any controller would notice it,
     * the same clock for Rekon and the raw PATCH.
     */
    Map<String, Object> latencyAt(int c, DeploymentVersions seen) throws Exception {
        int per = Math.max(16, 640 / c);
        // Each level first runs unmeasured at its own concurrency: paths taken only under contention get compiled too.
        Load.run(c, per / 2, (w, i) -> applied(postBuild(LAT, "img-" + w, builds.get(LAT + "/img-" + w).incrementAndGet())));
        Load.run(c, per / 2, (w, i) -> rawPatch("raw-" + w, rawBuilds.incrementAndGet()));
        Load.run(c, per / 2, (w, i) -> guardedPatch("guarded-" + w, rawBuilds.incrementAndGet()));
        List<Double> rekonReplies = java.util.Collections.synchronizedList(new ArrayList<>());
        Map<String, Double> callsBefore = ApiCalls.read(poster);
        double[] cpu0 = cpu();
        double[] userSys0 = Cpu.userSystem(app.pid());
        Map<String, Double> threads0 = Cpu.byThread(app.pid());
        long t0 = System.nanoTime();
        Load.Result rekon = Load.runTimed(c, per, (w, i) -> {
            String image = "img-" + w;
            long build = builds.get(LAT + "/" + image).incrementAndGet();
            long s = System.nanoTime();
            boolean ok = applied(postBuild(LAT, image, build));
            rekonReplies.add((System.nanoTime() - s) / 1e6);
            return ok ? seen.millisSince(Poster.digest("r/" + image, build), s) : null;
        });
        Stats rekonReply = Stats.of(rekonReplies, (System.nanoTime() - t0) / 1e9);
        double[] rekonCpu = perEvent(cpu0, cpu(), per * c);
        double[] userSys = perEvent(userSys0, Cpu.userSystem(app.pid()), per * c);
        String byThread = Cpu.perEventByThread(threads0, Cpu.byThread(app.pid()), per * c, 6);
        Map<String, Double> callsAfter = ApiCalls.read(poster);
        Map<String, Double> calls = ApiCalls.perEvent(callsBefore, callsAfter, rekonReplies.size());
        double inAppPatch = ApiCalls.meanMillis(callsBefore, callsAfter, "PATCH apps/deployments 200");
        List<Double> rawReplies = java.util.Collections.synchronizedList(new ArrayList<>());
        AtomicLong n = rawBuilds;
        cpu0 = cpu();
        t0 = System.nanoTime();
        Load.Result patch = Load.runTimed(c, per, (w, i) -> {
            long build = n.incrementAndGet();
            long s = System.nanoTime();
            rawPatch("raw-" + w, build);
            rawReplies.add((System.nanoTime() - s) / 1e6);
            return seen.millisSince(Poster.digest("r/raw", build), s);
        });
        Stats rawReply = Stats.of(rawReplies, (System.nanoTime() - t0) / 1e9);
        double[] rawCpu = perEvent(cpu0, cpu(), per * c);
        Load.Result guarded = Load.runTimed(c, per, (w, i) -> {
            long build = n.incrementAndGet();
            long s = System.nanoTime();
            guardedPatch("guarded-" + w, build);
            return seen.millisSince(Poster.digest("r/raw", build), s);
        });
        Load.Result hop = Load.run(c, per, (w, i) -> {
            Poster.Answer a = poster.event(UPDATE, Poster.image(LAT, "img-" + w), notReady(LAT, "img-" + w));
            return a.status() == 200 && a.body().contains("ImageNotReady");
        });
        double floor = patch.stats().p(0.5) + hop.stats().p(0.5);
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("concurrency", c);
        row.put("event_hop_p50_ms", hop.stats().p(0.5));
        row.put("floor_p50_ms", floor);
        row.put("p50_ratio_to_floor", rekon.stats().p(0.5) / floor);
        row.put("events", rekon.stats().millis().size());
        row.put("rekon_patched_p50_ms", rekon.stats().p(0.5));
        row.put("rekon_patched_p99_ms", rekon.stats().p(0.99));
        row.put("rekon_reply_p50_ms", rekonReply.p(0.5));
        row.put("rekon_reply_p99_ms", rekonReply.p(0.99));
        row.put("rekon_per_s", rekon.stats().throughput());
        row.put("rekon_not_applied", rekon.failures());
        row.put("raw_patched_p50_ms", patch.stats().p(0.5));
        row.put("raw_patched_p99_ms", patch.stats().p(0.99));
        row.put("raw_patch_response_p50_ms", rawReply.p(0.5));
        row.put("raw_patch_response_p99_ms", rawReply.p(0.99));
        row.put("raw_patch_per_s", patch.stats().throughput());
        row.put("raw_guarded_patched_p50_ms", guarded.stats().p(0.5));
        row.put("raw_guarded_patched_p99_ms", guarded.stats().p(0.99));
        row.put("raw_guarded_per_s", guarded.stats().throughput());
        row.put("p50_ratio", rekon.stats().p(0.5) / patch.stats().p(0.5));
        row.put("p50_ratio_to_guarded", rekon.stats().p(0.5) / guarded.stats().p(0.5));
        row.put("reply_p50_ratio", rekonReply.p(0.5) / rawReply.p(0.5));
        row.put("api_calls_per_event", calls);
        row.put("cpu_ms_per_event_app", rekonCpu[0]);
        row.put("cpu_ms_per_event_control_plane", rekonCpu[1]);
        row.put("cpu_ms_per_event_app_jit", rekonCpu[2]);
        row.put("cpu_ms_per_event_app_user", userSys[0]);
        row.put("cpu_ms_per_event_app_system", userSys[1]);
        row.put("cpu_ms_per_event_app_by_thread", byThread);
        row.put("cpu_ms_per_raw_patch_control_plane", rawCpu[1]);
        row.put("rekon_patch_call_mean_ms", inAppPatch);
        row.put("raw_patch_response_mean_ms", rawReply.mean());
        row(String.format("| c=%d: Image event → Deployment patched (seen by a watch), p50 / p99 / per s | %.1f / %.1f ms / %.0f |",
                c, rekon.stats().p(0.5), rekon.stats().p(0.99), rekon.stats().throughput()));
        row(String.format("| c=%d: raw PATCH → Deployment patched (seen by the same watch), p50 / p99 / per s | %.1f / %.1f ms / %.0f |",
                c, patch.stats().p(0.5), patch.stats().p(0.99), patch.stats().throughput()));
        row(String.format("| c=%d: **p50 ratio Rekon / raw PATCH** (Deployment patched) | **%.2f×** (not applied: %d) |", c,
                rekon.stats().p(0.5) / patch.stats().p(0.5), rekon.failures()));
        row(String.format("| c=%d: the event hop alone (a CloudEvent Rekon answers without an API call: Image not "
                + "ready), p50; floor = raw PATCH + hop; **Rekon / floor** | %.1f ms; %.1f ms; **%.2f×** |", c,
                hop.stats().p(0.5), floor, rekon.stats().p(0.5) / floor));
        row(String.format("| c=%d: raw PATCH of Rekon's kind (images + applied-builds annotation, resourceVersion "
                + "precondition) → patched, p50 / p99 / per s; Rekon's p50 against it | %.1f / %.1f ms / %.0f; %.2f× |",
                c, guarded.stats().p(0.5), guarded.stats().p(0.99), guarded.stats().throughput(),
                rekon.stats().p(0.5) / guarded.stats().p(0.5)));
        row(String.format("| c=%d: Rekon's reply / raw PATCH response, p50 / p99 | %.1f / %.1f ms vs %.1f / %.1f ms (%.2f×) |",
                c, rekonReply.p(0.5), rekonReply.p(0.99), rawReply.p(0.5), rawReply.p(0.99),
                rekonReply.p(0.5) / rawReply.p(0.5)));
        row(String.format("| c=%d: CPU per event: Rekon (of it JIT compiler) / apiserver+etcd; apiserver+etcd per raw "
                + "PATCH (2 cores = 2,000 ms of CPU per s) | %.2f (%.2f) / %.2f ms; %.2f ms |", c, rekonCpu[0],
                rekonCpu[2], rekonCpu[1], rawCpu[1]));
        row(String.format("| c=%d: Rekon's CPU per event, user / system; by thread (the kernel's names) | %.2f / %.2f ms; %s |",
                c, userSys[0], userSys[1], byThread));
        row(String.format("| c=%d: API calls per Image event (method, resource, status) | %s |", c, ApiCalls.describe(calls)));
        row(String.format("| c=%d: mean PATCH inside Rekon (its own client's timer) / raw PATCH response | %.1f / %.1f ms |",
                c, inAppPatch, rawReply.mean()));
        return row;
    }

    /**
     * Rollout events until the application's JIT compiler takes less than a tenth of its CPU over a batch (at most
     * {@value #WARM_UP_BATCHES} batches of {@value #WARM_UP} events): with a fixed, shorter warm-up the compiler
     * was still the application's largest CPU user while it was measured.
     */
    void warmUntilCompiled() throws Exception {
        int batch = 0;
        double share = 1;
        long t0 = System.nanoTime();
        while (batch < WARM_UP_BATCHES && share >= 0.1) {
            double[] before = cpu();
            Load.run(8, WARM_UP / 8, (w, i) -> post(LAT, "img-" + w).status() == 200);
            double[] after = cpu();
            share = (after[2] - before[2]) / (after[0] - before[0]);
            batch++;
        }
        results.put("warm_up_events", batch * WARM_UP);
        record("warm_up_jit_share", share * 100, String.format("warm-up: %,d rollout events in %.0f s, until the JIT "
                + "compiler's share of the application's CPU in a batch was", batch * WARM_UP,
                (System.nanoTime() - t0) / 1e9), "%.0f %%");
    }

    /** An Image event as an ApiServerSource sends it while kpack builds: nothing to roll out, no API call. */
    String notReady(String ns, String image) {
        return Poster.imageObject(ns, image, Poster.digest("r/" + image, 0), 0, uids.get(ns + "/" + image))
                .replace("{\"type\":\"Ready\",\"status\":\"True\"}", "{\"type\":\"Ready\",\"status\":\"Unknown\"}");
    }

    /** CPU so far of the application and of this run's apiserver and etcd, in ms. */
    double[] cpu() {
        return new double[] {Cpu.millis(app.pid()), Cpu.millis(controlPlane), Cpu.jitMillis(app.pid())};
    }

    /** Per event: the application's CPU, the control plane's, and of the application's the JIT compiler's. */
    static double[] perEvent(double[] before, double[] after, int events) {
        double[] out = new double[before.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = (after[i] - before[i]) / events;
        }
        return out;
    }

    void imageWithDeploy(String ns, String image, String deployment) {
        GenericKubernetesResource img = Kpack.built(admin, ns, image, Poster.digest("r/" + image, 0), 0);
        uids.put(ns + "/" + image, img.getMetadata().getUid());
        builds.put(ns + "/" + image, new AtomicLong());
        imageDeploy(admin, ns, deployment, image, deployment);
    }

    public static void imageDeploy(KubernetesClient k8s, String ns, String name, String image, String deployment) {
        GenericKubernetesResource idp = Serialization.unmarshal("""
                {"apiVersion": "rekon.dev/v1alpha1", "kind": "ImageDeploy",
                 "metadata": {"name": "%s", "namespace": "%s"},
                 "spec": {"deployment": {"metadata": {"name": "%s"},
                   "spec": {"replicas": 1, "selector": {"matchLabels": {"app": "%s"}},
                     "template": {"metadata": {"labels": {"app": "%s"}}, "spec": {
                       "containers": [{"name": "web", "image": "REF=%s"}]}}}}}}
                """.formatted(name, ns, deployment, name, name, image), GenericKubernetesResource.class);
        k8s.genericKubernetesResources(Kpack.IMAGE_DEPLOYS).inNamespace(ns).resource(idp).create();
    }

    Poster.Answer post(String ns, String image) {
        long build = builds.get(ns + "/" + image).incrementAndGet();
        return postBuild(ns, image, build);
    }

    Poster.Answer postBuild(String ns, String image, long build) {
        return poster.event(UPDATE, Poster.image(ns, image),
                Poster.imageObject(ns, image, Poster.digest("r/" + image, build), build, uids.get(ns + "/" + image)));
    }

    static boolean applied(Poster.Answer a) {
        return a.status() == 200 && a.body().contains("\"applied\"");
    }

    static void require(Poster.Answer a, String reason) {
        if (a.status() != 200 || !a.body().contains(reason)) {
            throw new IllegalStateException("expected " + reason + ", got " + a.status() + " " + a.body());
        }
    }

    void createRawDeployment(String name) {
        Deployment d = new DeploymentBuilder().withNewMetadata().withName(name).withNamespace(LAT).endMetadata()
                .withNewSpec().withReplicas(1).withNewSelector().addToMatchLabels("app", name).endSelector()
                .withNewTemplate().withNewMetadata().addToLabels("app", name).endMetadata().withNewSpec()
                .addNewContainer().withName("web").withImage(Poster.digest("r/raw", 0)).endContainer().endSpec()
                .endTemplate().endSpec().build();
        Deployment created = admin.apps().deployments().inNamespace(LAT).resource(d).create();
        guardedVersions.put(name, created.getMetadata().getResourceVersion());
    }

    boolean rawPatch(String name, long build) {
        String patch = "{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"web\",\"image\":\""
                + Poster.digest("r/raw", build) + "\"}]}}}}";
        // Named by an object, so that fabric8 sends the PATCH alone instead of a GET first: the physical limit.
        raw.apps().deployments().inNamespace(LAT).resource(new DeploymentBuilder()
                .withNewMetadata().withName(name).withNamespace(LAT).endMetadata().build()).patch(new PatchContext.Builder()
                .withPatchType(PatchType.STRATEGIC_MERGE).withFieldManager("bench").build(), patch);
        return true;
    }

    /**
     * The write Rekon's design needs, sent straight to the apiserver: the image and the applied-builds
     * annotation, guarded by the resourceVersion the previous PATCH returned (as Rekon's own-write memory
     * does). What separates Rekon from this is Rekon's own work; what separates this from the plain PATCH is
     * the price, at the apiserver, of a write that can never go backwards.
     */
    boolean guardedPatch(String name, long build) {
        String image = Poster.digest("r/raw", build);
        JsonObject patch = new JsonObject()
                .put("metadata", new JsonObject().put("resourceVersion", guardedVersions.get(name))
                        .put("annotations", new JsonObject().put("rekon.dev/applied-builds",
                                new io.vertx.core.json.JsonArray().add(new JsonObject().put("name", name).put("image", image)
                                        .put("buildCounter", build)).encode())))
                .put("spec", new JsonObject().put("template", new JsonObject().put("spec", new JsonObject()
                        .put("containers", new io.vertx.core.json.JsonArray().add(new JsonObject().put("name", "web")
                                .put("image", image))))));
        Deployment written = raw.apps().deployments().inNamespace(LAT).resource(new DeploymentBuilder()
                .withNewMetadata().withName(name).withNamespace(LAT).endMetadata().build()).patch(new PatchContext.Builder()
                .withPatchType(PatchType.STRATEGIC_MERGE).withFieldManager("bench").build(), patch.encode());
        guardedVersions.put(name, written.getMetadata().getResourceVersion());
        return true;
    }

    // --- (2) no-op events -------------------------------------------------------------------------------

    void noOps() throws Exception {
        int c = 8;
        int per = 50;
        // The Images in the cluster report the last build, as kpack's would.
        for (int i = 0; i < c; i++) {
            String image = "img-" + i;
            Kpack.built(admin, LAT, image, Poster.digest("r/" + image, builds.get(LAT + "/" + image).get()),
                    builds.get(LAT + "/" + image).get());
        }
        // Kubernetes Events of the latency runs are written after their replies; let them land first.
        Writes before = Writes.settled(admin, LAT);
        Load.Result repeats = Load.run(c, per, (w, i) -> {
            String image = "img-" + w;
            Poster.Answer a = postBuild(LAT, image, builds.get(LAT + "/" + image).get());
            return a.status() == 200 && a.body().contains("UpToDate");
        });
        Load.Result flips = Load.run(c, per, (w, i) -> {
            Poster.Answer a = poster.event("dev.knative.apiserver.ref.update",
                    Map.of("apiversion", "rekon.dev/v1alpha1", "kind", "ImageDeploy", "namespace", LAT, "name", "app-" + w),
                    "{\"apiVersion\":\"rekon.dev/v1alpha1\",\"kind\":\"ImageDeploy\",\"namespace\":\"" + LAT
                            + "\",\"name\":\"app-" + w + "\"}");
            return a.status() == 200 && a.body().contains("\"unchanged\"");
        });
        Writes after = Writes.count(admin, LAT);
        int events = repeats.stats().millis().size() + flips.stats().millis().size();
        Map<String, Object> noop = new LinkedHashMap<>();
        noop.put("events", events);
        noop.put("duplicate_image_events_per_s", repeats.stats().throughput());
        noop.put("imagedeploy_update_events_per_s", flips.stats().throughput());
        noop.put("not_unchanged", repeats.failures() + flips.failures());
        noop.put("object_writes", after.objectWritesSince(before));
        noop.put("etcd_revisions", after.revision() - before.revision());
        noop.put("writes_per_noop_event", (double) after.objectWritesSince(before) / events);
        results.put("noop", noop);
        row(String.format("| no-op: duplicate Image events / ImageDeploy update events per s (c=%d) | %.0f / %.0f |",
                c, repeats.stats().throughput(), flips.stats().throughput()));
        row(String.format("| no-op: **API writes per no-op event** (%d events; etcd revisions +%d, incl. the "
                + "apiserver's own lease) | **%.3f** (not unchanged: %d) |", events, after.revision() - before.revision(),
                (double) after.objectWritesSince(before) / events, repeats.failures() + flips.failures()));
    }

    // --- (3) cost per event with few and many ImageDeploys ----------------------------------------------

    /**
     * Has the status page read what the functions watch, as a user looking at it would, so that the retained heap
     * counts every reader's hold on the watched ImageDeploys, not only the event path's.
     */
    void statusLoaded() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        while (poster.send(java.net.http.HttpRequest.newBuilder(poster.root().resolve("/status")).GET().build())
                .status() != 200 && System.nanoTime() < deadline) {
            Thread.sleep(200);
        }
    }

    void scale(int total) throws Exception {
        Kpack.namespace(admin, SCALE);
        imageWithDeploy(SCALE, "target", "target");
        for (int i = 1; i < 10; i++) {
            imageDeploy(admin, SCALE, "other-" + i, "other-" + i, "other-" + i);
        }
        require(post(SCALE, "target"), "DeploymentCreated");
        Load.run(1, 20, (w, i) -> applied(post(SCALE, "target")));
        Map<String, Object> few = measureScale(10);
        ExecutorService pool = Executors.newFixedThreadPool(16);
        long t0 = System.nanoTime();
        for (int i = 10; i < total; i++) {
            int n = i;
            pool.submit(() -> imageDeploy(admin, SCALE, "other-" + n, "other-" + n, "other-" + n));
        }
        pool.shutdown();
        pool.awaitTermination(30, TimeUnit.MINUTES);
        System.out.printf("[bench] created %d ImageDeploys in %.0f s%n", total - 10, (System.nanoTime() - t0) / 1e9);
        Load.run(1, 20, (w, i) -> applied(post(SCALE, "target")));
        statusLoaded();
        Map<String, Object> many = measureScale(total);
        double ratio = (double) many.get("mean_ms") / (double) few.get("mean_ms");
        double cpuRatio = (double) many.get("cpu_ms_per_event") / (double) few.get("cpu_ms_per_event");
        results.put("scale", Map.of("few", few, "many", many, "mean_ratio", ratio, "cpu_ratio", cpuRatio));
        row(String.format("| cost per event, %d vs 10 ImageDeploys: mean latency %.1f vs %.1f ms, app CPU %.2f vs "
                + "%.2f ms | **%.2f×** (CPU %.2f×) |", total, many.get("mean_ms"), few.get("mean_ms"),
                many.get("cpu_ms_per_event"), few.get("cpu_ms_per_event"), ratio, cpuRatio));
    }

    // --- (4) Builder re-resolution ------------------------------------------------------------------------

    void builders(Path out, int buildpacks, int versions, int builders) throws Exception {
        BuilderBench bench = new BuilderBench(admin, poster, out);
        Map<String, Object> m;
        try {
            m = bench.run(buildpacks, versions, builders);
        } finally {
            bench.stop();
        }
        results.put("builders", m);
        row(String.format("| Builder resolution, %d ClusterBuildpacks × %d versions, %d Builders: all Builders' add "
                + "events (c=4), total / p50 per event | %.1f s / %.0f ms (not applied: %d) |", buildpacks, versions,
                builders, m.get("resolve_all_s"), m.get("resolve_builder_p50_ms"), m.get("resolve_not_applied")));
        row(String.format("| Builder re-resolution: one ClusterBuildpack republished (`dev.rekon.buildpacks.published`), "
                + "event time | %.0f ms |", m.get("change_event_ms")));
        row(String.format("| Builder re-resolution: **Builder status writes** / Builders naming the changed id | "
                + "**%d / %d** |", m.get("builder_status_writes"), m.get("builders_naming_changed_id")));
        row(String.format("| Builder re-resolution: registry requests / of them for other images | %d / **%d** |",
                m.get("registry_requests"), m.get("registry_requests_other_images")));
    }

    Map<String, Object> measureScale(int count) throws Exception {
        double cpu0 = Cpu.millis(app.pid());
        Load.Result r = Load.run(1, 200, (w, i) -> applied(post(SCALE, "target")));
        double cpu = (Cpu.millis(app.pid()) - cpu0) / r.stats().millis().size();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("imagedeploys", count);
        m.put("p50_ms", r.stats().p(0.5));
        m.put("mean_ms", r.stats().mean());
        m.put("cpu_ms_per_event", cpu);
        m.put("not_applied", r.failures());
        return m;
    }
}
