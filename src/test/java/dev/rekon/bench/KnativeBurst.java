package dev.rekon.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;

import dev.rekon.testing.Kpack;
import dev.rekon.testing.LocalCluster;
import dev.rekon.testing.SharedFiles;
import dev.rekon.testing.knative.AdapterProcess;
import dev.rekon.testing.knative.KnativeLoop;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.vertx.core.json.JsonObject;

/**
 * The Knative burst of {@code hack/bench.sh}: N converged ImageDeploys (default 2,000) on N/10 kpack Images, the
 * packaged functions, Knative's ApiServerSource adapters of the shipped rollout sources and the test broker routing
 * by the shipped Triggers; then a label added to every Image and ImageDeploy, so that the adapters send one update
 * event each. Every event must be answered 2xx and nothing written. Measures the time until the last is answered,
 * the functions' API calls while answering them, and the peak RSS of the functions and of the adapters. Prints a
 * markdown table and writes {@code target/bench/knative-burst.json}.
 */
public final class KnativeBurst {

    static final String NS = "bench-knative";

    public static void main(String[] args) throws Exception {
        int total = args.length > 0 ? Integer.parseInt(args[0]) : 2_000;
        int images = Math.max(1, total / 10);
        Path project = SharedFiles.projectDir();
        Path out = Files.createDirectories(project.resolve("target/bench"));
        LocalCluster cluster = LocalCluster.get();
        KubernetesClient admin = cluster.adminClient();
        App app = App.start(project, cluster.kubeconfigFile(), out.resolve("rekon-knative-burst.log"),
                "rekon.resync.on-start=false");
        try (KnativeLoop loop = KnativeLoop.start(cluster, app.port(), "burst")) {
            Map<String, Object> results = run(admin, app, loop, total, images);
            Files.writeString(out.resolve("knative-burst.json"), new JsonObject(results).encodePrettily());
            System.out.println("\nwritten: target/bench/knative-burst.json");
        } catch (Exception | Error e) {
            e.printStackTrace();
            app.stop();
            System.exit(1);
        }
        app.stop();
        System.exit(0);
    }

    static Map<String, Object> run(KubernetesClient admin, App app, KnativeLoop loop, int total, int images)
            throws Exception {
        admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NS)
                .withLabels(Map.of("rekon.dev/watched", "true")).endMetadata().build()).createOr(n -> n.update());
        for (int i = 0; i < images; i++) {
            Kpack.built(admin, NS, "img-" + i, Poster.digest("r/img-" + i, 1), 1);
        }
        parallel(total, i -> Bench.imageDeploy(admin, NS, "app-" + i, "img-" + (i % images), "app-" + i));
        Poster poster = new Poster(app.port());
        Bench.awaitFirstAnswer(app, poster);
        converge(poster, admin);

        AdapterProcess rollouts = loop.start(loop.source("rekon-rollouts"));
        AdapterProcess imageDeploys = loop.start(loop.source("rekon-imagedeploys-source"));
        Map<String, Double> before = ApiCalls.read(poster);
        Map<String, String> writtenBefore = written(admin);
        int expected = total + images;
        long t0 = System.nanoTime();
        parallel(images, i -> label(admin, "images", "img-" + i));
        parallel(total, i -> label(admin, "imagedeploys", "app-" + i));
        double labelled = (System.nanoTime() - t0) / 1e6;
        while (loop.broker().deliveries().size() < expected) {
            if (System.nanoTime() - t0 > TimeUnit.MINUTES.toNanos(20)) {
                throw new IllegalStateException("only " + loop.broker().deliveries().size() + " of " + expected
                        + " events delivered in 20 minutes");
            }
            SecondApiServer.sleep(50);
        }
        double drained = (System.nanoTime() - t0) / 1e6;
        SecondApiServer.sleep(5000); // anything more (an echo of a write) would arrive now
        List<JsonNode> deliveries = loop.broker().deliveries();
        Map<String, Double> after = ApiCalls.read(poster);
        long writes = changed(writtenBefore, written(admin));

        Map<String, Integer> byStatus = new TreeMap<>();
        Map<String, Integer> byOutcome = new TreeMap<>();
        deliveries.forEach(d -> {
            byStatus.merge(String.valueOf(d.path("status").asInt()), 1, Integer::sum);
            byOutcome.merge(d.path("kind").asText() + " " + d.path("outcome").asText() + "/" + d.path("reason").asText(),
                    1, Integer::sum);
        });
        Map<String, Double> calls = ApiCalls.perEvent(before, after, 1);
        long notOk = deliveries.stream().filter(d -> d.path("status").asInt() / 100 != 2).count();
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("imagedeploys", total);
        r.put("images", images);
        r.put("events_expected", expected);
        r.put("events_delivered", deliveries.size());
        r.put("not_2xx", notOk);
        r.put("by_status", byStatus);
        r.put("by_outcome", byOutcome);
        r.put("routing_errors", loop.broker().errors());
        r.put("labels_written_ms", labelled);
        r.put("drain_ms", drained);
        r.put("api_calls_while_answering", calls);
        r.put("objects_written", writes);
        r.put("rekon_peak_rss_mib", app.peakRssMiB());
        r.put("adapters_peak_rss_mib", List.of(peakRss(rollouts.pid()), peakRss(imageDeploys.pid())));
        System.out.printf("%n| Knative burst: %,d ImageDeploys + %,d Images labelled, one update event each through "
                + "Knative's ApiServerSource adapter and the Triggers | |%n|---|---|%n", total, images);
        System.out.printf("| events delivered / expected / not 2xx / routing errors | %d / %d / %d / %d |%n",
                deliveries.size(), expected, notOk, loop.broker().errors().size());
        System.out.printf("| first label written → last event answered (labels written in %.0f ms) | **%.1f s** |%n",
                labelled, drained / 1000);
        System.out.printf("| replies | %s |%n", byOutcome);
        System.out.printf("| Deployments, ImageDeploy statuses and Events written | %d |%n", writes);
        System.out.printf("| Rekon's API calls while answering them (total) | %s |%n", calls.isEmpty() ? "none" : calls);
        System.out.printf("| peak RSS: functions (-XX:MaxRAM=512m) / adapters (Image source, ImageDeploy source) | "
                + "%.0f MiB / %.0f MiB, %.0f MiB |%n", app.peakRssMiB(), peakRss(rollouts.pid()),
                peakRss(imageDeploys.pid()));
        r.put("echo", echo(admin, poster, loop, total, images));
        return r;
    }

    /**
     * A new build of every Image: its event rolls out each ImageDeploy that follows it (a Deployment patch and a
     * status write each), and each status write comes back from the adapter as one more ImageDeploy update event.
     * Answering those echoes must cost no API call: the only calls are the writes themselves.
     */
    static Map<String, Object> echo(KubernetesClient admin, Poster poster, KnativeLoop loop, int total, int images) {
        int from = loop.broker().deliveries().size();
        Map<String, Double> before = ApiCalls.read(poster);
        long t0 = System.nanoTime();
        for (int i = 0; i < images; i++) {
            Kpack.built(admin, NS, "img-" + i, Poster.digest("r/img-" + i, 2), 2);
        }
        int expected = images + total;
        int seen = -1;
        long quietSince = System.nanoTime();
        while (System.nanoTime() - quietSince < TimeUnit.SECONDS.toNanos(5)
                || loop.broker().deliveries().size() - from < expected) {
            if (System.nanoTime() - t0 > TimeUnit.MINUTES.toNanos(20)) {
                throw new IllegalStateException("only " + (loop.broker().deliveries().size() - from) + " of "
                        + expected + " events delivered in 20 minutes");
            }
            int now = loop.broker().deliveries().size();
            if (now != seen) {
                seen = now;
                quietSince = System.nanoTime();
            }
            SecondApiServer.sleep(100);
        }
        double drained = (System.nanoTime() - t0) / 1e6 - 5_000;
        List<JsonNode> deliveries = loop.broker().deliveries().subList(from, loop.broker().deliveries().size());
        Map<String, Double> calls = ApiCalls.perEvent(before, ApiCalls.read(poster), 1);
        double reads = calls.entrySet().stream().filter(e -> e.getKey().startsWith("GET ")
                || e.getKey().startsWith("LIST ")).mapToDouble(Map.Entry::getValue).sum();
        double writes = calls.values().stream().mapToDouble(Double::doubleValue).sum() - reads;
        Map<String, Integer> byOutcome = new TreeMap<>();
        deliveries.forEach(d -> byOutcome.merge(d.path("kind").asText() + " " + d.path("outcome").asText() + "/"
                + d.path("reason").asText(), 1, Integer::sum));
        long notOk = deliveries.stream().filter(d -> d.path("status").asInt() / 100 != 2).count();
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("events_delivered", deliveries.size());
        r.put("not_2xx", notOk);
        r.put("by_outcome", byOutcome);
        r.put("drain_ms", drained);
        r.put("api_calls", calls);
        r.put("reads", reads);
        r.put("writes", writes);
        System.out.printf("%n| Knative echo: a new build of %,d Images rolls out %,d ImageDeploys; each status write comes"
                + " back as an update event | |%n|---|---|%n", images, total);
        System.out.printf("| events delivered (Image events + status echoes) / not 2xx | %d / %d |%n",
                deliveries.size(), notOk);
        System.out.printf("| first build written → last event answered | **%.1f s** |%n", drained / 1000);
        System.out.printf("| replies | %s |%n", byOutcome);
        System.out.printf("| Rekon's API calls: reads (GET, LIST) / writes | **%.0f** / %.0f (%s) |%n", reads, writes,
                calls);
        return r;
    }

    /** Resyncs of the namespace until one changes nothing, then until the writes settled. */
    static void converge(Poster poster, KubernetesClient admin) {
        for (int pass = 1; pass < 20; pass++) {
            Poster.Answer a = poster.send(java.net.http.HttpRequest.newBuilder(poster.root())
                    .timeout(java.time.Duration.ofMinutes(30)).header("ce-specversion", "1.0")
                    .header("ce-id", java.util.UUID.randomUUID().toString()).header("ce-source", "bench")
                    .header("ce-type", "dev.rekon.resync").header("Content-Type", "application/json")
                    .POST(java.net.http.HttpRequest.BodyPublishers.ofString(
                            "{\"scope\":\"rollouts\",\"namespace\":\"" + NS + "\"}")).build());
            if (a.status() == 200 && a.body().contains("\"outcome\":\"unchanged\"")) {
                Writes.settled(admin, NS);
                return;
            }
            System.out.printf("[knative-burst] resync pass %d converging%n", pass);
            SecondApiServer.sleep(2000);
        }
        throw new IllegalStateException("the ImageDeploys did not converge");
    }

    static void label(KubernetesClient admin, String plural, String name) {
        var context = plural.equals("images") ? Kpack.IMAGES : Kpack.IMAGE_DEPLOYS;
        admin.genericKubernetesResources(context).inNamespace(NS).withName(name).patch(
                io.fabric8.kubernetes.client.dsl.base.PatchContext.of(io.fabric8.kubernetes.client.dsl.base.PatchType.JSON_MERGE),
                "{\"metadata\":{\"labels\":{\"bench.rekon.dev/burst\":\"1\"}}}");
    }

    /** What Rekon would write in the namespace: Deployments (by resourceVersion), ImageDeploy status, Events. */
    static Map<String, String> written(KubernetesClient admin) {
        Map<String, String> v = new TreeMap<>();
        admin.apps().deployments().inNamespace(NS).list().getItems()
                .forEach(d -> v.put("Deployment/" + d.getMetadata().getName(), d.getMetadata().getResourceVersion()));
        admin.genericKubernetesResources(Kpack.IMAGE_DEPLOYS).inNamespace(NS).list().getItems()
                .forEach(d -> v.put("status/" + d.getMetadata().getName(), String.valueOf(
                        d.getAdditionalProperties().get("status"))));
        v.put("events", String.valueOf(admin.v1().events().inNamespace(NS).list().getItems().size()));
        return v;
    }

    static long changed(Map<String, String> before, Map<String, String> after) {
        return after.entrySet().stream().filter(e -> !e.getValue().equals(before.get(e.getKey()))).count();
    }

    static void parallel(int n, java.util.function.IntConsumer task) throws InterruptedException {
        ExecutorService pool = Executors.newFixedThreadPool(8);
        for (int i = 0; i < n; i++) {
            int k = i;
            pool.submit(() -> task.accept(k));
        }
        pool.shutdown();
        pool.awaitTermination(60, TimeUnit.MINUTES);
    }

    static double peakRss(long pid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
                if (line.startsWith("VmHWM:")) {
                    return Long.parseLong(line.replaceAll("\\D", "")) / 1024.0;
                }
            }
        } catch (java.io.IOException e) {
            // gone already
        }
        return -1;
    }
}
