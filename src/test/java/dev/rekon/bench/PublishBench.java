package dev.rekon.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.modules.manifest.ManifestFixtures;
import dev.rekon.modules.manifest.OcmRegistry;
import dev.rekon.modules.ocm.TestSigning;
import dev.rekon.testing.LocalCluster;
import dev.rekon.testing.LocalRegistry;
import dev.rekon.testing.SharedFiles;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.vertx.core.json.JsonObject;

/**
 * The module publication figures of {@code hack/bench.sh}, on a real registry (which sends no notifications) and
 * apiserver: a publish event for a pushed component version until its ModuleTemplate and channel are written,
 * beside the same two server-side applies made directly with the client in the same run (target: at most 1.5x),
 * after {@value #WARM} of each unmeasured, and beside the registry reads no publisher can skip, made alone;
 * then a resync that publishes as many more versions of a second component as make 100 in all, and a converged
 * resync of the 100 (target: no write).
 */
public final class PublishBench {

    static final String KYMA = "operator.kyma-project.io/v1beta2";
    static final String BASE = "component-descriptors/bench.rekon.dev/";
    static final String NS = "bench-publish";
    static final String RAW = "bench-publish-raw";
    static final int WARM = 20;

    private final KubernetesClient admin;
    private final Poster poster;
    private final OcmRegistry ocm;
    private final String registry;
    private final Map<String, Object> results = new LinkedHashMap<>();

    PublishBench(KubernetesClient admin, App app, String registry) {
        this.admin = admin;
        this.poster = new Poster(app.port());
        this.ocm = new OcmRegistry(registry, null);
        this.registry = registry;
    }

    public static void main(String[] args) throws Exception {
        int events = args.length > 0 ? Integer.parseInt(args[0]) : 50;
        Path out = SharedFiles.projectDir().resolve("target/bench");
        Files.createDirectories(out);
        LocalCluster cluster = LocalCluster.get();
        // A registry of its own per run: a converged pass must find only this run's versions.
        LocalRegistry registry = LocalRegistry.start(LocalRegistry.Options.plain("bench-publish-registry-"
                + ProcessHandle.current().pid()));
        App app = App.start(SharedFiles.projectDir(), cluster.kubeconfigFile(), out.resolve("rekon-publish.log"),
                "rekon.resync.on-start=false", "rekon.modules.publish.repositories=" + registry.hostPort() + "/"
                        + BASE.substring(0, BASE.length() - 1), "rekon.modules.publish.namespace=" + NS);
        int code = 0;
        try {
            new PublishBench(cluster.adminClient(), app, registry.hostPort()).run(events, out);
        } catch (Exception | Error e) {
            e.printStackTrace();
            code = 1;
        } finally {
            app.stop();
            registry.stop();
        }
        System.exit(code);
    }

    void run(int events, Path out) throws Exception {
        while (poster.event("dev.rekon.image.built", Map.of(), "{}").status() != 400) {
            SecondApiServer.sleep(100);
        }
        for (String ns : List.of(NS, RAW)) {
            admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata().build())
                    .serverSideApply();
        }
        // Warm-up: both sides pay for their first requests, and their code is compiled, outside the figures.
        for (int i = 0; i < WARM; i++) {
            publishAndRaw("benchwarm", "0.0." + i);
        }
        List<Double> rekon = new ArrayList<>();
        List<Double> raw = new ArrayList<>();
        List<Double> reads = new ArrayList<>();
        Map<String, Double> before = ApiCalls.read(poster);
        Map<String, Double> registryBefore = registryRequests();
        for (int i = 0; i < events; i++) {
            double[] pair = publishAndRaw("benchpush", "1.0." + i);
            rekon.add(pair[0]);
            raw.add(pair[1]);
            reads.add(registryReads("benchpush", "1.0." + i));
        }
        Map<String, Double> after = ApiCalls.read(poster);
        Map<String, Double> calls = ApiCalls.perEvent(before, after, events);
        StringBuilder where = new StringBuilder();
        calls.forEach((k, v) -> where.append(String.format("%s %.1f × %.1f ms; ", k, v,
                ApiCalls.meanMillis(before, after, k))));
        Map<String, Double> registryCalls = ApiCalls.perEvent(registryBefore, registryRequests(), events);
        Stats r = Stats.of(rekon, 1);
        Stats w = Stats.of(raw, 1);
        double ratio = r.p(0.5) / w.p(0.5);
        System.out.println("| Module publication | Rekon / raw | ratio | target |");
        System.out.println("|---|---|---|---|");
        System.out.printf("| push → ModuleTemplate + channel written, median of %d (p90): publish event / the same two"
                + " SSAs with the client | %.1f (%.1f) / %.1f (%.1f) ms | %.2fx | ≤ 1.5x %s |%n", events, r.p(0.5),
                r.p(0.9), w.p(0.5), w.p(0.9), ratio, ratio <= 1.5 ? "PASS" : "MISS");
        Stats g = Stats.of(reads, 1);
        System.out.printf("| … the registry reads a publication cannot skip, alone: the manifest, then its config and"
                + " layers beside one another (p90); Rekon / (reads + the two SSAs) | %.1f (%.1f) ms; %.2fx | | |%n",
                g.p(0.5), g.p(0.9), r.p(0.5) / (g.p(0.5) + w.p(0.5)));
        System.out.printf("| … Rekon's API calls per publication: count × mean time | %s | | |%n", where);
        System.out.printf("| … Rekon's registry requests per publication | %s | | |%n", registryCalls);
        results.put("publish", Map.of("calls", calls, "registry", registryCalls, "events", events, "rekon_p50_ms", r.p(0.5), "rekon_p90_ms", r.p(0.9),
                "raw_p50_ms", w.p(0.5), "raw_p90_ms", w.p(0.9), "ratio", ratio, "registry_reads_p50_ms", g.p(0.5)));
        resync(100 - events - WARM, out);
        Files.writeString(out.resolve("publish.json"), new JsonObject(results).encodePrettily());
    }

    /** Pushes a version (not timed); answers the publish event's time and the two raw applies' time, in ms. */
    private double[] publishAndRaw(String module, String version) throws Exception {
        push(module, version);
        long t0 = System.nanoTime();
        Poster.Answer a = poster.event("dev.rekon.modules.publish", Map.of(), new JsonObject(Map.of("repository",
                registry + "/" + BASE + module, "version", version)).encode());
        double rekon = (System.nanoTime() - t0) / 1e6;
        check(a.status() == 200 && a.body().contains("\"outcome\":\"applied\""), "publish " + a.body());
        GenericKubernetesResource template = admin.genericKubernetesResources(KYMA, "ModuleTemplate").inNamespace(NS)
                .withName(module + "-" + version).get();
        ObjectNode t = TestSigning.JSON.valueToTree(template);
        ((ObjectNode) t.get("metadata")).retain("name", "annotations", "labels");
        ((ObjectNode) t.get("metadata")).put("namespace", RAW);
        t.remove("status");
        ObjectNode meta = TestSigning.JSON.createObjectNode().put("apiVersion", KYMA).put("kind", "ModuleReleaseMeta");
        meta.putObject("metadata").put("name", module).put("namespace", RAW);
        meta.putObject("spec").put("moduleName", module).put("ocmComponentName", "bench.rekon.dev/" + module)
                .putArray("channels").addObject().put("channel", "fast").put("version", version);
        long t1 = System.nanoTime();
        apply(t, "rekon");
        apply(meta, "rekon-channel-fast");
        return new double[] {rekon, (System.nanoTime() - t1) / 1e6};
    }

    /**
     * The registry requests any publisher makes for a version, timed in ms: its manifest, then its config and every
     * layer at once (a publisher must read the descriptor and manifest it checks before it writes).
     */
    private double registryReads(String module, String version) throws Exception {
        String base = "http://" + registry + "/v2/" + BASE + module;
        long t0 = System.nanoTime();
        JsonNode manifest = TestSigning.JSON.readTree(HTTP.send(java.net.http.HttpRequest.newBuilder(
                java.net.URI.create(base + "/manifests/" + version)).header("Accept",
                        "application/vnd.oci.image.manifest.v1+json").build(),
                java.net.http.HttpResponse.BodyHandlers.ofByteArray()).body());
        List<String> digests = new ArrayList<>(List.of(manifest.path("config").path("digest").asText()));
        manifest.path("layers").forEach(l -> digests.add(l.path("digest").asText()));
        List<java.util.concurrent.CompletableFuture<?>> blobs = digests.stream().map(d -> HTTP.sendAsync(
                java.net.http.HttpRequest.newBuilder(java.net.URI.create(base + "/blobs/" + d)).build(),
                java.net.http.HttpResponse.BodyHandlers.ofByteArray())).collect(java.util.stream.Collectors.toList());
        blobs.forEach(java.util.concurrent.CompletableFuture::join);
        return (System.nanoTime() - t0) / 1e6;
    }

    private static final java.net.http.HttpClient HTTP = java.net.http.HttpClient.newHttpClient();

    private void apply(JsonNode object, String manager) {
        admin.resource(Serialization.unmarshal(object.toString(), GenericKubernetesResource.class))
                .fieldManager(manager).forceConflicts().serverSideApply();
    }

    /** A resync publishing {@code more} versions of another component, then a converged one over all 100. */
    private void resync(int more, Path out) throws Exception {
        for (int i = 0; i < more; i++) {
            push("benchmany", "2.0." + i);
        }
        Poster.Answer first = poster.event("dev.rekon.resync", Map.of(), "{\"scope\":\"publish\"}");
        check(first.body().contains("\"changed\":" + more), "the first pass publishes " + more + ": " + first.body());
        Map<String, Double> before = ApiCalls.read(poster);
        long t0 = System.nanoTime();
        Poster.Answer again = poster.event("dev.rekon.resync", Map.of(), "{\"scope\":\"publish\"}");
        double millis = (System.nanoTime() - t0) / 1e6;
        Map<String, Double> calls = ApiCalls.perEvent(before, ApiCalls.read(poster), 1);
        double writes = calls.entrySet().stream().filter(e -> !e.getKey().startsWith("GET ")).mapToDouble(
                Map.Entry::getValue).sum();
        double reads = calls.values().stream().mapToDouble(Double::doubleValue).sum() - writes;
        check(again.body().contains("\"unchanged\":100"), "the second pass finds 100 unchanged: " + again.body());
        System.out.printf("| converged resync of 100 published versions: writes; API reads; time | %.0f; %.0f; %.0f ms"
                + " | | 0 writes %s |%n", writes, reads, millis, writes == 0 ? "PASS" : "MISS");
        results.put("converged_resync", Map.of("versions", 100, "writes", writes, "reads", reads, "ms", millis,
                "calls", calls));
    }

    /** {@code rekon_registry_requests_total} by method and status. */
    private Map<String, Double> registryRequests() {
        Poster.Answer a = poster.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(poster.root()
                + "q/metrics")).GET().build());
        Map<String, Double> out = new java.util.TreeMap<>();
        java.util.regex.Matcher m = java.util.regex.Pattern.compile(
                "^rekon_registry_requests_total\\{(.*)} ([0-9.E+-]+)$", java.util.regex.Pattern.MULTILINE)
                .matcher(a.body());
        while (m.find()) {
            out.merge(m.group(1).replaceAll(".*method=\"([^\"]*)\".*status=\"([^\"]*)\".*", "$1 $2"),
                    Double.parseDouble(m.group(2)), Double::sum);
        }
        return out;
    }

    private void push(String module, String version) throws Exception {
        byte[] tar = ManifestFixtures.tar(Map.of("10-config.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: "
                + module + ", namespace: bench-" + module + "}\ndata: {version: \"" + version + "\"}\n"));
        ObjectNode d = ManifestFixtures.localBlobDescriptor(version, registry, tar);
        ObjectNode c = (ObjectNode) d.get("component");
        c.put("name", "bench.rekon.dev/" + module);
        var resources = c.withArray("resources");
        for (int i = resources.size() - 1; i >= 0; i--) {
            if (!"raw-manifest".equals(resources.get(i).path("name").asText())) {
                resources.remove(i);
            }
        }
        ocm.pushComponent(d, tar);
    }

    private static void check(boolean ok, String what) {
        if (!ok) {
            throw new IllegalStateException("failed: " + what);
        }
    }
}
