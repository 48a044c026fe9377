package dev.rekon.buildpacks;

import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import dev.rekon.buildpacks.apply.BuildpackGateway;
import dev.rekon.buildpacks.apply.KubeBuildpackGateway;
import dev.rekon.buildpacks.catalog.BuildpackCatalog;
import dev.rekon.buildpacks.plan.KpackStatus;
import dev.rekon.buildpacks.view.BuildpackEntry;
import dev.rekon.buildpacks.view.BuildpackSource;
import dev.rekon.buildpacks.view.BuildpackView;
import dev.rekon.cluster.KubeErrors;
import dev.rekon.core.ObjectRef;
import dev.rekon.core.TransientFailureException;

import dev.rekon.testing.Await;
import dev.rekon.testing.BuildpackageImages.Buildpack;
import dev.rekon.testing.BuildpackageImages;
import dev.rekon.testing.Events;
import dev.rekon.testing.Kpack;
import dev.rekon.testing.LocalCluster;
import dev.rekon.testing.LocalRegistry;
import dev.rekon.testing.RekonTestResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The watch-fed buildpack catalog against the real apiserver: once its watches run, a Builder event reads its
 * own object and no other kpack object; the Builders a buildpack's event re-resolves right after Rekon wrote
 * that buildpack's status resolve against the new status, not the one the watch may still show; and a Builder
 * status planned from a version the index saw is not written over a newer one.
 */
@QuarkusTest
@QuarkusTestResource(value = RekonTestResource.class, restrictToAnnotatedClass = false)
class BuildpackCatalogTest {

    static final String NS = "bp-catalog";

    static KubernetesClient k8s;
    static LocalRegistry quiet;

    @Inject
    MeterRegistry meters;

    @Inject
    BuildpackCatalog catalog;

    @Inject
    BuildpackGateway gateway;

    @BeforeAll
    static void setUp() {
        k8s = LocalCluster.get().adminClient();
        Kpack.namespace(k8s, NS);
        // No push notifications: each test sends the events itself.
        quiet = LocalRegistry.start(LocalRegistry.Options.plain("bp-catalog-quiet"));
    }

    @AfterAll
    static void tearDown() {
        quiet.stop();
    }

    @Test
    void aBuilderEventOnAWarmCatalogReadsOnlyItsOwnObject() {
        withStatus(create("""
                {"apiVersion":"kpack.io/v1alpha2","kind":"ClusterBuildpack","metadata":{"name":"catalog-go"},
                 "spec":{"source":{"image":"registry.example/catalog/go:1"}}}"""), "catalog/go", "1.0.0", "1.1.0");
        withStatus(create("""
                {"apiVersion":"kpack.io/v1alpha2","kind":"Buildpack","metadata":{"name":"catalog-node","namespace":"%s"},
                 "spec":{"source":{"image":"registry.example/catalog/node:1"}}}""".formatted(NS)), "catalog/node", "2.0.0");
        for (String name : List.of("first", "second")) {
            create("""
                    {"apiVersion":"kpack.io/v1alpha2","kind":"Builder","metadata":{"name":"%s","namespace":"%s"},
                     "spec":{"tag":"registry.example/builders/%s","order":[{"group":[{"id":"catalog/go"},{"id":"catalog/node"}]}]}}"""
                    .formatted(name, NS, name));
        }
        // The first event starts the watches in the background if no test has yet, and lists until they have synced;
        // they may show the objects above a moment later.
        Set<String> ownCalls = Set.of("GET kpack.io/builders", "PATCH kpack.io/builders/status");
        Await.until("the first Builder resolves, from synced watches", () -> {
            Map<String, Double> was = kpackCalls();
            builderEvent("first");
            return "1.1.0".equals(get("Builder", NS, "first").at("/status/order/0/group/0/version").asText())
                    && ownCalls.containsAll(callsSince(was).keySet());
        });

        Map<String, Double> calls = callsSince(kpackCalls(), () -> builderEvent("second").body("outcome", equalTo("applied")));
        assertEquals(Map.of("GET kpack.io/builders", 1.0, "PATCH kpack.io/builders/status", 1.0), calls);
        JsonNode group = get("Builder", NS, "second").at("/status/order/0/group");
        assertEquals("catalog/go@1.1.0 catalog/node@2.0.0", group.get(0).path("id").asText() + "@"
                + group.get(0).path("version").asText() + " " + group.get(1).path("id").asText() + "@"
                + group.get(1).path("version").asText());
    }

    @Test
    void aBuilderReResolvedRightAfterABuildpackStatusWriteSeesTheNewStatus() throws Exception {
        String image = quiet.hostPort() + "/catalog/ruby:1";
        BuildpackageImages images = new BuildpackageImages(Files.createDirectories(Path.of("target/bp-catalog-work")));
        images.push(image, null, "catalog/ruby", "1.0.0", "r1", Buildpack.of("catalog/ruby@1.0.0"));
        create("""
                {"apiVersion":"kpack.io/v1alpha2","kind":"ClusterBuildpack","metadata":{"name":"catalog-ruby"},
                 "spec":{"source":{"image":"%s"}}}""".formatted(image));
        create("""
                {"apiVersion":"kpack.io/v1alpha2","kind":"Builder","metadata":{"name":"ruby","namespace":"%s"},
                 "spec":{"tag":"registry.example/builders/ruby","order":[{"group":[{"id":"catalog/ruby"}]}]}}""".formatted(NS));
        clusterBuildpackEvent("catalog-ruby").body("outcome", equalTo("applied"));
        Await.until("the Builder resolves to 1.0.0", () -> {
            builderEvent("ruby");
            return "1.0.0".equals(rubyVersion());
        });

        images.push(image, null, "catalog/ruby", "1.1.0", "r2", Buildpack.of("catalog/ruby@1.1.0"));
        clusterBuildpackEvent("catalog-ruby").body("outcome", equalTo("applied"));

        // read at once: the event re-resolved the Builder before its reply, whatever the watch showed by then
        assertEquals("1.1.0", rubyVersion());
    }

    @Test
    void whatAnEventWroteStandsInForAWatchThatHasNotShownItYet() {
        GenericKubernetesResource lagging = create("""
                {"apiVersion":"kpack.io/v1alpha2","kind":"ClusterBuildpack","metadata":{"name":"catalog-lagging"},
                 "spec":{"source":{"image":"registry.example/catalog/lagging:1"}}}""");
        withStatus(lagging, "catalog/lagging", "1.0.0");
        Await.until("the watch shows 1.0.0", () -> List.of("1.0.0").equals(laggingVersions()));
        long watched = Long.parseLong(get("ClusterBuildpack", null, "catalog-lagging").at("/metadata/resourceVersion").asText());

        // as if this process had just written 2.0.0, and the watch had not delivered that write yet
        catalog.knows(new BuildpackSource(BuildpackSource.CLUSTER_BUILDPACK, null, "catalog-lagging", List.of(
                new BuildpackEntry("catalog/lagging", "2.0.0", null, null, "sha256:2", "sha256:2", 1, null, null, null, null))),
                "registry.example/catalog/lagging:1", Long.toString(watched + 1_000_000));

        assertEquals(List.of("2.0.0"), laggingVersions());
    }

    @Test
    void aStatusWritePlannedFromAnOlderVersionConflicts() {
        create("""
                {"apiVersion":"kpack.io/v1alpha2","kind":"Builder","metadata":{"name":"guarded","namespace":"%s"},
                 "spec":{"tag":"registry.example/builders/guarded","order":[{"group":[{"id":"catalog/go"}]}]}}""".formatted(NS));
        String seen = get("Builder", NS, "guarded").at("/metadata/resourceVersion").asText();
        k8s.genericKubernetesResources(KubeBuildpackGateway.context("Builder")).inNamespace(NS).withName("guarded")
                .edit(b -> {
                    b.getMetadata().setLabels(Map.of("changed", "meanwhile"));
                    return b;
                });
        ObjectRef ref = new ObjectRef(BuildpackView.API_VERSION, "Builder", NS, "guarded");
        KpackStatus.Patch patch = KpackStatus.Patch.of(new KpackStatus(1L, null, null, null, null));

        TransientFailureException lost = assertThrows(TransientFailureException.class, () -> gateway.patchStatus(ref, patch, seen));
        assertTrue(KubeErrors.isConflict(lost), lost.getMessage());
        String current = get("Builder", NS, "guarded").at("/metadata/resourceVersion").asText();
        String written = gateway.patchStatus(ref, patch, current);
        assertEquals(written, get("Builder", NS, "guarded").at("/metadata/resourceVersion").asText());
        assertEquals(1, get("Builder", NS, "guarded").at("/status/observedGeneration").asInt());
    }

    private List<String> laggingVersions() {
        return catalog.sources(BuildpackSource.CLUSTER_BUILDPACK, null).stream()
                .filter(s -> s.name().equals("catalog-lagging")).flatMap(s -> s.buildpacks().stream())
                .map(BuildpackEntry::version).toList();
    }

    private static String rubyVersion() {
        return get("Builder", NS, "ruby").at("/status/order/0/group/0/version").asText();
    }

    /** Kubernetes API calls on kpack objects so far, by method and resource. */
    private Map<String, Double> callsSince(Map<String, Double> before, Runnable action) {
        action.run();
        return callsSince(before);
    }

    /** The kpack API calls made since {@code before}, by method and resource. */
    private Map<String, Double> callsSince(Map<String, Double> before) {
        Map<String, Double> calls = kpackCalls();
        before.forEach((call, n) -> calls.computeIfPresent(call, (c, now) -> now - n == 0 ? null : now - n));
        return calls;
    }

    private Map<String, Double> kpackCalls() {
        Map<String, Double> calls = new HashMap<>();
        for (Timer t : meters.find("rekon.api.calls").timers()) {
            String resource = t.getId().getTag("resource");
            if (resource != null && resource.startsWith("kpack.io/")) {
                calls.merge(t.getId().getTag("method") + " " + resource, (double) t.count(), Double::sum);
            }
        }
        return calls;
    }

    private static io.restassured.response.ValidatableResponse builderEvent(String name) {
        return Events.binary(BuildpackPublicationTest.ADD, Events.apiServerExtensions("kpack.io/v1alpha2", "Builder", NS, name),
                get("Builder", NS, name).toString()).statusCode(200);
    }

    private static io.restassured.response.ValidatableResponse clusterBuildpackEvent(String name) {
        return Events.binary(BuildpackPublicationTest.ADD, Map.of("apiversion", "kpack.io/v1alpha2", "kind",
                "ClusterBuildpack", "name", name), get("ClusterBuildpack", null, name).toString()).statusCode(200);
    }

    private static GenericKubernetesResource create(String json) {
        BuildpackPublicationTest.create(json);
        GenericKubernetesResource r = Serialization.unmarshal(json, GenericKubernetesResource.class);
        return Serialization.jsonMapper().convertValue(get(r.getKind(), r.getMetadata().getNamespace(),
                r.getMetadata().getName()), GenericKubernetesResource.class);
    }

    /** Writes a status listing these versions of one id, as a reconcile before would have. */
    private static void withStatus(GenericKubernetesResource r, String id, String... versions) {
        StringBuilder entries = new StringBuilder();
        for (String v : versions) {
            String hex = String.format("%064x", (id + v).hashCode() & 0xffffffffL);
            entries.append(entries.length() == 0 ? "" : ",").append("""
                    {"id":"%s","version":"%s","diffId":"sha256:%s","digest":"sha256:%s","size":1}"""
                    .formatted(id, v, hex, hex));
        }
        r.setAdditionalProperty("status", Serialization.unmarshal("{\"buildpacks\":[" + entries + "]}", Map.class));
        var op = k8s.genericKubernetesResources(KubeBuildpackGateway.context(r.getKind()));
        String ns = r.getMetadata().getNamespace();
        (ns == null ? op.resource(r) : op.inNamespace(ns).resource(r)).updateStatus();
    }

    private static JsonNode get(String kind, String namespace, String name) {
        return BuildpackPublicationTest.get(kind, namespace, name);
    }
}
