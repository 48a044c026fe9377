package dev.rekon.testing.knative;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

import dev.rekon.testing.ApiServerWatches;
import dev.rekon.testing.LocalCluster;
import dev.rekon.testing.SharedFiles;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * Real Knative in the loop: the ApiServerSource adapters of {@code knative/eventing/} run as local processes
 * against the local apiserver, as the sources' ServiceAccount with {@code knative/rbac} applied, after Knative's
 * access check; they send to the test broker, which routes by {@code knative/eventing/triggers.yaml} to the
 * functions under test. With {@code -Drekon.knative.record=<folder>} the broker writes the first event of each
 * kind and type it receives there.
 */
public final class KnativeLoop implements AutoCloseable {

    public static final String SYSTEM_NAMESPACE = "knative-eventing";
    /** Every file of knative/eventing that holds sources, the optional ones included. */
    public static final List<String> SOURCE_FILES = List.of("knative/eventing/sources.yaml",
            "knative/eventing/imagedeploy-source.yaml", "knative/eventing/optional/kpush-imagedeploys.yaml");

    private final LocalCluster cluster;
    private final Path workDir;
    private final LocalBroker broker;
    private final List<AdapterProcess> adapters = new ArrayList<>();

    private KnativeLoop(LocalCluster cluster, Path workDir, LocalBroker broker) {
        this.cluster = cluster;
        this.workDir = workDir;
        this.broker = broker;
    }

    /** Applies the sources' RBAC and starts a broker that posts to the functions on 127.0.0.1:{@code port}. */
    public static KnativeLoop start(LocalCluster cluster, int port, String name) {
        KnativeBinaries.dir();
        applyRbac(cluster.adminClient());
        Path workDir = SharedFiles.projectDir().resolve("target/knative/" + name);
        String record = System.getProperty("rekon.knative.record");
        LocalBroker broker = LocalBroker.start("http://127.0.0.1:" + port + "/", workDir,
                record == null ? null : Path.of(record));
        return new KnativeLoop(cluster, workDir, broker);
    }

    /** Applies the sources' ServiceAccount and its RBAC from {@code knative/rbac}, as {@code kubectl apply -k} does. */
    public static void applyRbac(KubernetesClient admin) {
        for (String file : List.of("knative/rbac/service-account.yaml", "knative/rbac/sources-role.yaml")) {
            load(admin, SharedFiles.projectDir().resolve(file)).forEach(o -> admin.resource(o).forceConflicts()
                    .serverSideApply());
        }
    }

    /** The sources of the shipped files, by name (ApiServerSources and adapter Deployments). */
    public SourceSpec source(String name) {
        Path project = SharedFiles.projectDir();
        return SourceSpec.named(SourceSpec.load(cluster.adminClient(),
                SOURCE_FILES.stream().map(project::resolve).toArray(Path[]::new)), name);
    }

    /** Makes Knative's access check for the source (failing the test when refused), then starts its adapter. */
    public AdapterProcess start(SourceSpec source) {
        KubernetesClient admin = cluster.adminClient();
        List<String> missing = AccessCheck.missing(admin, source);
        if (!missing.isEmpty()) {
            fail("Knative would create no adapter for " + source.name() + ": User system:serviceaccount:"
                    + source.namespace() + ":" + source.serviceAccount() + " cannot " + String.join(", ", missing));
        }
        Map<String, String> env = new HashMap<>();
        env.put("KUBECONFIG", cluster.kubeconfigFor(source.namespace(), source.serviceAccount()).toString());
        env.put("K_SINK", broker.url());
        env.put("K_SOURCE_CONFIG", source.sourceConfig(admin));
        env.put("NAME", source.name());
        env.put("NAMESPACE", source.namespace());
        env.put("SYSTEM_NAMESPACE", SYSTEM_NAMESPACE);
        env.put("METRICS_DOMAIN", "knative.dev/eventing");
        Map<String, Integer> before = ApiServerWatches.byResource(admin);
        AdapterProcess adapter = AdapterProcess.start("apiserver_receive_adapter", env,
                workDir.resolve(source.name() + "-" + source.mode() + ".log"), "Starting in resilient mode");
        adapters.add(adapter);
        awaitWatching(admin, source, before);
        return adapter;
    }

    /**
     * Waits until the adapter watches every resource in every namespace it was given. Knative's adapter sends no
     * event for what its first list finds (its store's {@code Replace} does nothing), so an object written before
     * that list is never delivered; a watch the apiserver serves means the list before it is done. Under load its
     * client's own rate limit (5 per second) spaces the lists of a dozen namespaces over seconds.
     */
    private static void awaitWatching(KubernetesClient admin, SourceSpec source, Map<String, Integer> before) {
        int each = source.allNamespaces() ? 1 : source.namespaces(admin).size();
        Map<String, Integer> wanted = new HashMap<>();
        for (SourceSpec.Watched w : source.resources()) {
            String key = (w.group().isEmpty() ? "core" : w.group()) + "/" + w.resource();
            wanted.merge(key, each, Integer::sum);
        }
        dev.rekon.testing.Await.until("the " + source.name() + " adapter watching " + wanted,
                java.time.Duration.ofSeconds(60), () -> {
                    Map<String, Integer> now = ApiServerWatches.byResource(admin);
                    return wanted.entrySet().stream().allMatch(e -> now.getOrDefault(e.getKey(), 0)
                            >= before.getOrDefault(e.getKey(), 0) + e.getValue());
                });
    }

    /**
     * Starts Knative's multi-tenant PingSource adapter (mtping) in {@value #SYSTEM_NAMESPACE}, with the ConfigMaps
     * it watches there (Knative's install ships them). It runs every PingSource whose status says Ready with a
     * sinkUri, which Knative's controller writes and {@link PingSources#ready} writes here.
     */
    public AdapterProcess startPing() {
        KubernetesClient admin = cluster.adminClient();
        admin.namespaces().resource(new io.fabric8.kubernetes.api.model.NamespaceBuilder().withNewMetadata()
                .withName(SYSTEM_NAMESPACE).endMetadata().build()).createOr(n -> n.update());
        for (String name : List.of("config-logging", "config-observability", "config-features")) {
            admin.configMaps().inNamespace(SYSTEM_NAMESPACE).resource(new io.fabric8.kubernetes.api.model
                    .ConfigMapBuilder().withNewMetadata().withName(name).endMetadata().build()).createOr(c -> c.update());
        }
        Map<String, String> env = new HashMap<>();
        env.put("KUBECONFIG", cluster.kubeconfigFile().toString());
        env.put("SYSTEM_NAMESPACE", SYSTEM_NAMESPACE);
        env.put("NAMESPACE", SYSTEM_NAMESPACE);
        env.put("NAME", "pingsource-mt-adapter");
        env.put("METRICS_DOMAIN", "knative.dev/eventing");
        AdapterProcess adapter = AdapterProcess.start("mtping", env, workDir.resolve("mtping.log"),
                "Starting controller");
        adapters.add(adapter);
        return adapter;
    }

    public LocalBroker broker() {
        return broker;
    }

    public Path workDir() {
        return workDir;
    }

    /** Every event delivered so far was routed to exactly one function, replies to none, and answered 2xx. */
    public void assertAllDeliveredOnce() {
        assertEquals(List.of(), broker.errors(), "routing errors");
        for (JsonNode d : broker.deliveries()) {
            int status = d.path("status").asInt();
            if (status < 200 || status > 299) {
                fail("event answered " + status + ": " + d);
            }
        }
    }

    /** Deliveries of this kind and name. */
    public List<JsonNode> deliveries(String kind, String name) {
        return broker.deliveries().stream().filter(d -> kind.equals(d.path("kind").asText())
                && name.equals(d.path("name").asText())).toList();
    }

    /** Waits until an event of this kind and name was delivered (and answered). */
    public void awaitDelivered(String kind, String name) {
        dev.rekon.testing.Await.until(kind + " " + name + " delivered through the adapter",
                java.time.Duration.ofSeconds(20), () -> !deliveries(kind, name).isEmpty());
    }

    @Override
    public void close() {
        adapters.forEach(AdapterProcess::close);
        try {
            Files.writeString(workDir.resolve("deliveries.json"), broker.deliveries().toString());
        } catch (IOException | RuntimeException e) {
            // only a record for whoever reads the logs
        }
        broker.close();
    }

    static List<HasMetadata> load(KubernetesClient client, Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            return client.load(in).items();
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + file, e);
        }
    }
}
