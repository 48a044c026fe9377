package dev.rekon.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import dev.rekon.testing.ApiCallSeries;
import dev.rekon.testing.Kpack;
import dev.rekon.testing.LocalCluster;
import dev.rekon.testing.PromotionFixtures;
import dev.rekon.testing.SharedFiles;
import dev.rekon.testing.StageApiServer;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.vertx.core.json.JsonObject;

/**
 * The promotion part of {@code hack/bench.sh}: three clusters (dev, staging, prod; one apiserver each) with one
 * packaged Rekon each, as deployed; an ImagePromotion dev → staging → prod, soak 0, no approval. Per build: from the
 * kpack Image event to prod's Deployment patched (as a watch of it shows), with the bench acting as each cluster's
 * ApiServerSource (it watches the objects and posts an event with the object its watch delivered once it shows the
 * change, and does not wait for the reply)
 * and as each Deployment controller, whose time is left out. Staging's and prod's Rekon send their CDEvents to dev's. Beside it, in the same run, what the chain cannot
 * avoid: six raw PATCH round trips (per stage a PromotedImage status and a Deployment) plus three event hops (an
 * event each Rekon answers without work); and, apart, that loop with the two status writes the issue's own rules put
 * before a proof (dev's and staging's {@code RolledOut}). Each build's chain, and then its raw loop, start once no
 * Rekon has made an API call for 600 ms ({@link #settle}). Prints a markdown table beside Kargo's default 5-minute
 * discovery.
 */
public final class PromotionBench {

    static final String NS = "bench-promo";
    static final ResourceDefinitionContext PROMOTED = PromotionFixtures.PROMOTED;
    static final ResourceDefinitionContext DEPLOYMENTS = new ResourceDefinitionContext.Builder().withGroup("apps")
            .withVersion("v1").withPlural("deployments").withKind("Deployment").withNamespaced(true).build();

    private final KubernetesClient dev;
    private final Map<String, KubernetesClient> clusters = new LinkedHashMap<>();
    private final Map<String, App> rekons = new LinkedHashMap<>();
    private final Map<String, RawPatches> rawPatches = new LinkedHashMap<>();
    private double controllerMillis;
    /** Per build, where the chain's time went: each step's time since the step before, the controllers' left out. */
    private final Map<String, List<Double>> laps = new LinkedHashMap<>();
    private long lapStart;
    private double lapController;
    private boolean measured;
    private final ExecutorService senders = Executors.newCachedThreadPool();
    /** Each cluster's objects as its ApiServerSource would see them. */
    private final Map<String, ChainWatch> watches = new LinkedHashMap<>();

    PromotionBench(KubernetesClient dev) {
        this.dev = dev;
    }


    public static void main(String[] args) throws Exception {
        int builds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        Path project = SharedFiles.projectDir();
        Path out = Files.createDirectories(project.resolve("target/bench/promotion"));
        LocalCluster cluster = LocalCluster.get();
        PromotionBench bench = new PromotionBench(cluster.adminClient());
        StageApiServer staging = StageApiServer.start("bench-staging", out);
        StageApiServer prod = StageApiServer.start("bench-prod", out);
        try {
            Map<String, Object> r = bench.run(cluster, staging, prod, out, builds);
            Files.writeString(project.resolve("target/bench/promotion.json"), new JsonObject(r).encodePrettily());
            System.out.println("\nwritten: target/bench/promotion.json");
        } catch (Exception | Error e) {
            e.printStackTrace();
            bench.stop(staging, prod);
            System.exit(1);
        }
        bench.stop(staging, prod);
        System.exit(0);
    }

    void stop(StageApiServer staging, StageApiServer prod) {
        watches.values().forEach(ChainWatch::close);
        rekons.values().forEach(App::stop);
        senders.shutdownNow();
        staging.close();
        prod.close();
    }

    Map<String, Object> run(LocalCluster cluster, StageApiServer staging, StageApiServer prod, Path out, int builds)
            throws Exception {
        clusters.put("dev", dev);
        clusters.put("staging", staging.adminClient());
        clusters.put("prod", prod.adminClient());
        for (Map.Entry<String, KubernetesClient> c : clusters.entrySet()) {
            Kpack.namespace(c.getValue(), NS);
            PromotionFixtures.imageDeploy(c.getValue(), NS, c.getKey().equals("dev") ? null : "PromotedImage");
        }
        PromotionFixtures.kubeconfigSecret(dev, NS, "staging-kubeconfig", staging.kubeconfig());
        PromotionFixtures.kubeconfigSecret(dev, NS, "prod-kubeconfig", prod.kubeconfig());
        Kpack.built(dev, NS, "hello", Poster.digest("r/promo", 0), 0);
        Kpack.built(dev, NS, "idle", Poster.digest("r/idle", 1), 1);
        // The hops' Image is followed, so that its event finds its ImageDeploy rolled out already and reads nothing
        // (an Image nothing follows is answered after listing the namespace's ImageDeploys).
        PromotionFixtures.imageDeploy(dev, NS, "idle", null);
        App devRekon = App.start(SharedFiles.projectDir(), cluster.kubeconfigFile(), out.resolve("rekon-dev.log"),
                "rekon.resync.on-start=false");
        rekons.put("dev", devRekon);
        String sink = "rekon.cdevents.sink=http://127.0.0.1:" + devRekon.port() + "/";
        for (Map.Entry<String, StageApiServer> s : Map.of("staging", staging, "prod", prod).entrySet()) {
            Path kubeconfig = out.resolve(s.getKey() + "-kubeconfig.yaml");
            Files.writeString(kubeconfig, s.getValue().kubeconfig());
            rekons.put(s.getKey(), App.start(SharedFiles.projectDir(), kubeconfig, out.resolve("rekon-" + s.getKey()
                    + ".log"), "rekon.resync.on-start=false", sink, "rekon.cdevents.environment=" + s.getKey()));
        }
        rekons.values().forEach(app -> Bench.awaitFirstAnswer(app, new Poster(app.port())));
        PromotionFixtures.promotion(dev, NS, List.of(PromotionFixtures.localStage("dev", null),
                PromotionFixtures.stage("staging", "staging-kubeconfig", NS, "staging"),
                PromotionFixtures.stage("prod", "prod-kubeconfig", NS, "prod")));
        clusters.forEach((name, k) -> rawPatches.put(name, new RawPatches(k, k, NS)));
        clusters.forEach((name, k) -> watches.put(name, new ChainWatch(k, NS, DEPLOYMENTS, Kpack.IMAGE_DEPLOYS,
                PROMOTED)));
        rawPatches.values().forEach(p -> p.create("raw"));
        clusters.forEach((name, k) -> k.genericKubernetesResources(PROMOTED).inNamespace(NS).resource(promoted("raw"))
                .createOr(x -> x.update()));

        List<Double> chain = new ArrayList<>();
        List<Double> raw = new ArrayList<>();
        List<Double> floor = new ArrayList<>();
        Map<String, Map<String, Double>> callsBefore = new LinkedHashMap<>();
        for (int b = 1; b <= builds + 2; b++) {
            measured = b > 2;
            if (b == 3) {
                rekons.forEach((name, app) -> callsBefore.put(name, ApiCalls.read(new Poster(app.port()))));
            }
            settle();
            double c = chainOf(b);
            settle();
            double r = rawOf(b);
            double rules = rolledOutWritesOf(b);
            if (b > 2) {
                chain.add(c);
                raw.add(r);
                floor.add(r + rules);
            }
            System.out.printf("[promotion] build %d: chain %.0f ms, raw %.0f ms%n", b, c, r);
        }
        Stats chainStats = Stats.of(chain, 0);
        Stats rawStats = Stats.of(raw, 0);
        Stats floorStats = Stats.of(floor, 0);
        double ratio = chainStats.p(0.5) / rawStats.p(0.5);
        double toFloor = chainStats.p(0.5) / floorStats.p(0.5);
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("builds", builds);
        r.put("chain_p50_ms", chainStats.p(0.5));
        r.put("chain_max_ms", chainStats.p(1.0));
        r.put("raw_p50_ms", rawStats.p(0.5));
        r.put("ratio", ratio);
        r.put("floor_p50_ms", floorStats.p(0.5));
        r.put("ratio_to_floor", toFloor);
        System.out.printf("%n| Promotion dev → staging → prod (one Rekon per cluster, soak 0, no approval; %d builds"
                + " after 2 unmeasured) | |%n|---|---|%n", builds);
        System.out.printf("| kpack Image event → prod's Deployment patched, controllers' time left out: p50 / max |"
                + " **%.0f ms** / %.0f ms |%n", chainStats.p(0.5), chainStats.p(1.0));
        System.out.printf("| what the chain cannot avoid: 6 raw PATCHes + 3 event hops, p50 | %.0f ms |%n",
                rawStats.p(0.5));
        System.out.printf("| ratio (goal ≤ 1.5×) | **%.2f×** — %s |%n", ratio, ratio <= 1.5 ? "met" : "not met");
        System.out.printf("| beside it: the raw loop + the 2 status PATCHes the rules put on the path (dev's and staging's"
                + " `RolledOut`, written before a proof), p50 | %.0f ms |%n", floorStats.p(0.5));
        System.out.printf("| the chain ÷ that | %.2f× |%n", toFloor);
        System.out.println("| Kargo's default Warehouse discovery interval (polling) | 5 min |");
        System.out.println("\n| where the chain's time goes (each step since the one before, controllers left out) | p50 |"
                + "\n|---|---|");
        Map<String, Double> steps = new LinkedHashMap<>();
        laps.forEach((step, ms) -> {
            steps.put(step, Stats.of(ms, 0).p(0.5));
            System.out.printf("| %s | %.0f ms |%n", step, Stats.of(ms, 0).p(0.5));
        });
        r.put("steps_p50_ms", steps);
        System.out.println("\n| each Rekon's API calls per build | its own cluster's | its stage clients' (dev's: the"
                + " stages' clusters) |\n|---|---|---|");
        Map<String, Object> calls = new LinkedHashMap<>();
        rekons.forEach((name, app) -> {
            Map<String, Double> per = ApiCalls.perEvent(callsBefore.get(name), ApiCalls.read(new Poster(app.port())),
                    builds + 0);
            calls.put(name, per);
            Map<String, Double> own = new java.util.TreeMap<>(per);
            Map<String, Double> stages = new java.util.TreeMap<>();
            per.forEach((k, v) -> {
                if (k.startsWith("stage ")) {
                    own.remove(k);
                    stages.put(k.substring("stage ".length()), v);
                }
            });
            System.out.printf("| %s | %s | %s |%n", name, ApiCalls.describe(own), ApiCalls.describe(stages));
        });
        r.put("api_calls_per_build", calls);
        return r;
    }

    /**
     * One build through the three stages, observed as the ApiServerSources and the Deployment controllers would:
     * each event is posted when the watched object it is about shows the change, without waiting for its reply
     * (checked after), and the build is through once prod's Deployment, watched, shows its image; the time the bench spent
     * as the Deployment controller is left out.
     */
    double chainOf(long build) {
        String image = Poster.digest("r/promo", build);
        controllerMillis = 0;
        List<CompletableFuture<Void>> replies = new ArrayList<>();
        long t0 = System.nanoTime();
        lapStart = t0;
        lapController = 0;
        GenericKubernetesResource built = Kpack.built(dev, NS, "hello", image, build);
        replies.add(post("dev", "kpack.io/v1alpha2", "Image", built));
        rollsOut("dev", image);
        lap("dev: Image event → Deployment patched");
        GenericKubernetesResource idp = watches.get("dev").await("dev's ImageDeploy rolled out " + image,
                "ImageDeploy", "hello", o -> rolledOut(o, image));
        lap("dev: Deployment rolled out → RolledOut True written");
        replies.add(post("dev", "rekon.dev/v1alpha1", "ImageDeploy", idp));
        for (String stage : List.of("staging", "prod")) {
            if (stage.equals("prod")) {
                // Staging's step taken apart: its own Rekon's status write, then the CDEvent and dev's promotion.
                watches.get("staging").await("staging's ImageDeploy rolled out " + image, "ImageDeploy", "hello",
                        o -> rolledOut(o, image));
                lap("staging: Deployment rolled out → RolledOut True written");
            }
            GenericKubernetesResource promoted = watches.get(stage).await(stage + "'s PromotedImage " + image,
                    "PromotedImage", "hello", o -> image.equals(latestImage(o)));
            lap(stage.equals("staging") ? "dev: ImageDeploy event → staging's PromotedImage written"
                    : "staging: RolledOut written, seen by dev (watch or CDEvent) → prod's PromotedImage written");
            replies.add(post(stage, "rekon.dev/v1alpha1", "PromotedImage", promoted));
            rollsOut(stage, image);
            lap(stage + ": PromotedImage event → Deployment patched");
        }
        double millis = (System.nanoTime() - t0) / 1e6 - controllerMillis;
        CompletableFuture.allOf(replies.toArray(CompletableFuture[]::new)).join();
        return millis;
    }

    private void lap(String step) {
        long now = System.nanoTime();
        if (measured) {
            laps.computeIfAbsent(step, s -> new ArrayList<>()).add((now - lapStart) / 1e6
                    - (controllerMillis - lapController));
        }
        lapStart = now;
        lapController = controllerMillis;
    }

    /**
     * Waits until no Rekon has made an API call for 600 ms (at most 4 s), so that the chain and the raw loop are both
     * timed from a quiet start: what a build sets off after the chain's end (a status pass spaced by its interval,
     * Events, the promotion's own status) otherwise runs during the raw loop, slowing the baseline by what Rekon
     * does in the background, and a change that does less there would look slower for it.
     */
    private void settle() {
        ApiCallSeries.quiet(this::callsSoFar, Duration.ofMillis(600), Duration.ofSeconds(4));
    }

    private Map<String, Map<String, Double>> callsSoFar() {
        Map<String, Map<String, Double>> calls = new LinkedHashMap<>();
        rekons.forEach((name, app) -> calls.put(name, ApiCalls.read(new Poster(app.port()))));
        return calls;
    }

    /** Six raw PATCH round trips (per cluster a PromotedImage status and a Deployment) and three no-op events. */
    double rawOf(long build) {
        long t0 = System.nanoTime();
        for (Map.Entry<String, KubernetesClient> c : clusters.entrySet()) {
            c.getValue().genericKubernetesResources(PROMOTED).inNamespace(NS).withName("raw").subresource("status")
                    .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"status\":{\"latestImage\":\""
                            + Poster.digest("r/raw", build) + "\",\"buildCounter\":" + build + "}}");
            rawPatches.get(c.getKey()).patch("raw");
            Poster.Answer hop = new Poster(rekons.get(c.getKey()).port()).event(
                    "dev.knative.apiserver.resource.update", Poster.image(NS, "idle"),
                    Poster.imageObject(NS, "idle", Poster.digest("r/idle", 1), 1, "idle"));
            if (hop.status() != 200) {
                throw new IllegalStateException("a hop answered " + hop.status() + ": " + hop.body());
            }
        }
        return (System.nanoTime() - t0) / 1e6;
    }

    /**
     * What the issue's own rules add to the raw loop on the chain's path: the ImageDeploy status write that says
     * {@code RolledOut} in dev and in staging, which a proof waits for (timed as two raw status PATCHes, dev's and
     * staging's PromotedImage {@code raw}, the same kind of write).
     */
    double rolledOutWritesOf(long build) {
        long t0 = System.nanoTime();
        for (String cluster : List.of("dev", "staging")) {
            clusters.get(cluster).genericKubernetesResources(PROMOTED).inNamespace(NS).withName("raw")
                    .subresource("status").patch(PatchContext.of(PatchType.JSON_MERGE), "{\"status\":{\"buildCounter\":"
                            + (build + 100_000) + "}}");
        }
        return (System.nanoTime() - t0) / 1e6;
    }

    /** Posts the event as an ApiServerSource does: the reply is checked, but nothing waits for it. */
    private CompletableFuture<Void> post(String cluster, String apiVersion, String kind,
            GenericKubernetesResource object) {
        return CompletableFuture.runAsync(() -> {
            Poster.Answer a = new Poster(rekons.get(cluster).port()).event("dev.knative.apiserver.resource.update",
                    Map.of("apiversion", apiVersion, "kind", kind, "namespace", NS, "name", "hello"),
                    Kpack.json(object));
            if (a.status() != 200) {
                throw new IllegalStateException(kind + " event in " + cluster + " answered " + a.status() + ": "
                        + a.body());
            }
        }, senders);
    }

    /**
     * Once Rekon patched the cluster's Deployment: the bench as its Deployment controller (prod's rollout is past
     * the chain's end); the controller's time left out.
     */
    private void rollsOut(String cluster, String image) {
        KubernetesClient k = clusters.get(cluster);
        watches.get(cluster).await(cluster + "'s Deployment runs " + image, "Deployment", "hello",
                d -> image.equals(Serialization.jsonMapper().convertValue(d, Deployment.class).getSpec().getTemplate()
                        .getSpec().getContainers().get(0).getImage()));
        if (cluster.equals("prod")) {
            return;
        }
        long c0 = System.nanoTime();
        PromotionFixtures.deploymentRolledOut(k, NS);
        controllerMillis += (System.nanoTime() - c0) / 1e6;
    }

    private static boolean rolledOut(GenericKubernetesResource idp, String image) {
        Object status = idp.getAdditionalProperties().get("status");
        if (!(status instanceof Map<?, ?> s) || !String.valueOf(s.get("images")).contains(image)) {
            return false;
        }
        return s.get("conditions") instanceof List<?> l && l.stream().anyMatch(c -> c instanceof Map<?, ?> m
                && "RolledOut".equals(m.get("type")) && "True".equals(m.get("status")));
    }

    private static String latestImage(GenericKubernetesResource r) {
        return !(r.getAdditionalProperties().get("status") instanceof Map<?, ?> s) ? null
                : String.valueOf(s.get("latestImage"));
    }

    private static GenericKubernetesResource promoted(String name) {
        return Serialization.unmarshal("""
                {"apiVersion": "rekon.dev/v1alpha1", "kind": "PromotedImage",
                 "metadata": {"name": "%s", "namespace": "%s"}, "spec": {}}
                """.formatted(name, NS), GenericKubernetesResource.class);
    }
}
