package dev.rekon.buildpacks;

import static dev.rekon.buildpacks.Fixtures.bp;
import static dev.rekon.buildpacks.Fixtures.cluster;
import static dev.rekon.buildpacks.Fixtures.ns;
import static dev.rekon.buildpacks.BuildpackStatusPlannerTest.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.io.IOException;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.buildpacks.plan.BuilderStatusPlanner;
import dev.rekon.buildpacks.plan.Catalog;
import dev.rekon.buildpacks.plan.StatusPlan;
import dev.rekon.buildpacks.view.BuilderView;

class BuilderStatusPlannerTest {

    static final ObjectMapper JSON = new ObjectMapper();
    static final Instant T1 = Instant.parse("2026-01-01T10:00:00Z");
    static final Instant T2 = Instant.parse("2026-01-01T11:00:00Z");

    static final Catalog CATALOG = Catalog.of(
            List.of(ns("java", bp("paketo/java@2.0.0", "j2", "paketo/jvm@1.0.0"), bp("paketo/jvm@1.0.0", "jvm1"))),
            List.of(cluster("node", bp("paketo/node@9.0.0", "n9"))));

    static BuilderView builder(long generation, String order, JsonNode status) {
        try {
            ObjectNode o = (ObjectNode) JSON.readTree("""
                    {"apiVersion":"kpack.io/v1alpha2","kind":"Builder",
                     "metadata":{"name":"web","namespace":"team","generation":%d},
                     "spec":{"tag":"127.0.0.1:5000/builders/web","order":%s}}
                    """.formatted(generation, order));
            if (status != null) {
                o.set("status", status);
            }
            return BuilderView.of(o);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    static final String GOOD = """
            [{"group":[{"id":"paketo/java"},{"id":"paketo/node","optional":true}]}]""";
    static final String BAD = """
            [{"group":[{"id":"paketo/ruby"}]}]""";

    @Test
    void writesTheResolvedOrderMetadataAndBothConditions() throws IOException {
        StatusPlan.Write w = assertInstanceOf(StatusPlan.Write.class, BuilderStatusPlanner.plan(builder(2, GOOD, null), CATALOG, T1));

        assertEquals(JSON.readTree("""
                {"observedGeneration":2,
                 "order":[{"group":[{"id":"paketo/java","version":"2.0.0"},{"id":"paketo/node","version":"9.0.0","optional":true}]}],
                 "builderMetadata":[{"id":"paketo/java","version":"2.0.0","homepage":"https://example.org/paketo/java"},
                                    {"id":"paketo/jvm","version":"1.0.0","homepage":"https://example.org/paketo/jvm"},
                                    {"id":"paketo/node","version":"9.0.0","homepage":"https://example.org/paketo/node"}],
                 "conditions":[
                   {"type":"Ready","status":"True","reason":"Resolved","message":"resolved 3 buildpacks in 1 groups",
                    "lastTransitionTime":"2026-01-01T10:00:00Z","observedGeneration":2},
                   {"type":"UpToDate","status":"True","reason":"Resolved","message":"resolved 3 buildpacks in 1 groups",
                    "lastTransitionTime":"2026-01-01T10:00:00Z","observedGeneration":2}]}
                """), json(w));
    }

    @Test
    void resolvingTheSameAgainWritesNothing() {
        StatusPlan.Write w = (StatusPlan.Write) BuilderStatusPlanner.plan(builder(2, GOOD, null), CATALOG, T1);

        StatusPlan again = BuilderStatusPlanner.plan(builder(2, GOOD, withKpackFields(json(w))), CATALOG, T2);

        assertInstanceOf(StatusPlan.NoChange.class, again);
    }

    @Test
    void aFailureWithoutAnEarlierOrderIsNotReady() {
        StatusPlan.Write w = assertInstanceOf(StatusPlan.Write.class, BuilderStatusPlanner.plan(builder(1, BAD, null), CATALOG, T1));

        assertEquals(List.of("False", "BuildpackNotFound", "could not find buildpack with id 'paketo/ruby'"),
                condition(json(w), 0));
        assertEquals(List.of("False", "BuildpackNotFound", "could not find buildpack with id 'paketo/ruby'"),
                condition(json(w), 1));
        assertFalse(json(w).has("order"));
    }

    @Test
    void aFailureAfterASuccessKeepsTheOrderAndStaysReady() {
        StatusPlan.Write ok = (StatusPlan.Write) BuilderStatusPlanner.plan(builder(1, GOOD, null), CATALOG, T1);

        StatusPlan.Write w = assertInstanceOf(StatusPlan.Write.class,
                BuilderStatusPlanner.plan(builder(2, BAD, json(ok)), CATALOG, T2));

        assertEquals(List.of("conditions", "observedGeneration"), BuildpackStatusPlannerTest.fieldNames(json(w)));
        assertEquals(List.of("True", "PreviousOrderKept",
                "keeps the order resolved before; UpToDate says why the current spec does not resolve"), condition(json(w), 0));
        assertEquals("2026-01-01T10:00:00Z", json(w).at("/conditions/0/lastTransitionTime").asText());
        assertEquals(List.of("False", "BuildpackNotFound", "could not find buildpack with id 'paketo/ruby'"),
                condition(json(w), 1));
        assertEquals("2026-01-01T11:00:00Z", json(w).at("/conditions/1/lastTransitionTime").asText());
    }

    @Test
    void aClusterBuilderNamingABuildpackSaysSo() throws IOException {
        ObjectNode o = (ObjectNode) JSON.readTree("""
                {"kind":"ClusterBuilder","metadata":{"name":"base","generation":1},
                 "spec":{"order":[{"group":[{"kind":"Buildpack","name":"java"}]}]}}""");

        StatusPlan.Write w = (StatusPlan.Write) BuilderStatusPlanner.plan(BuilderView.of(o), CATALOG, T1);

        assertEquals(List.of("False", "NamespacedBuildpackInClusterBuilder",
                "a ClusterBuilder cannot use the namespaced Buildpack 'java'; reference a ClusterBuildpack instead"),
                condition(json(w), 1));
        assertEquals("ClusterBuilder base", w.target().toString());
    }

    @Test
    void readsImagesNamedDirectly() throws IOException {
        BuilderView b = builder(1, """
                [{"group":[{"image":"127.0.0.1:5000/a:1"},{"id":"x"}]},{"group":[{"image":"127.0.0.1:5000/a:1"}]}]""", null);

        assertEquals(List.of("127.0.0.1:5000/a:1"), b.images());
    }

    /** The API server returns fields kpack owns too (latestImage, stack); they never cause a write. */
    static JsonNode withKpackFields(ObjectNode status) {
        ObjectNode s = status.deepCopy();
        s.put("latestImage", "127.0.0.1:5000/builders/web@sha256:1");
        return s;
    }

    static List<String> condition(JsonNode status, int i) {
        JsonNode c = status.path("conditions").get(i);
        return List.of(c.path("status").asText(), c.path("reason").asText(), c.path("message").asText());
    }
}
