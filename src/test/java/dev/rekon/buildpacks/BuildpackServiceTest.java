package dev.rekon.buildpacks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.buildpacks.BuildpackInput.BuilderChanged;
import dev.rekon.buildpacks.BuildpackInput.BuilderDeleted;
import dev.rekon.buildpacks.BuildpackInput.BuildpackChanged;
import dev.rekon.buildpacks.BuildpackInput.Published;
import dev.rekon.buildpacks.catalog.Buildpackages;
import dev.rekon.buildpacks.view.ImageRead;
import dev.rekon.core.Reply;
import dev.rekon.core.TransientFailureException;
import dev.rekon.pipeline.NamespaceGuard;
import dev.rekon.pipeline.ReconcileLoop;
import dev.rekon.registry.ImageReference;
import dev.rekon.testing.Failures;

/**
 * {@link BuildpackService}'s orchestration over in-memory gateways: given kpack objects, image reads and an
 * event, these status writes in this order and this reply, with lost races, refusals and outages included.
 */
class BuildpackServiceTest {

    static final ObjectMapper JSON = new ObjectMapper();
    static final String IMAGE = BuildpackStatusPlannerTest.IMAGE;
    static final String CBP = "status ClusterBuildpack java";
    static final String BUILDER = "status Builder team/builder";

    record Case(String name, Consumer<InMemoryBuildpacks> given, BuildpackInput event, List<String> writes,
            String outcome, String reason) {
        @Override
        public String toString() {
            return name;
        }
    }

    static BuildpackService service(InMemoryBuildpacks cluster) {
        return service(cluster, NamespaceGuard.of(dev.rekon.core.NamespacePolicy.parse("*")));
    }

    /** The service over the in-memory cluster, acting where {@code guard} allows. */
    static BuildpackService service(InMemoryBuildpacks cluster, NamespaceGuard guard) {
        Clock clock = Clock.fixed(Instant.parse("2026-11-23T10:00:00Z"), ZoneOffset.UTC);
        ReconcileLoop loop = ReconcileLoop.of(guard);
        Buildpackages held = new Buildpackages();
        BuilderReconciler builders = new BuilderReconciler();
        builders.held = held;
        builders.gateway = cluster;
        builders.catalog = cluster;
        builders.clock = clock;
        BuilderResolutions resolutions = new BuilderResolutions();
        resolutions.builders = cluster;
        resolutions.guard = guard;
        resolutions.loop = loop;
        resolutions.reconciler = builders;
        BuildpackReconciler buildpacks = new BuildpackReconciler();
        buildpacks.gateway = cluster;
        buildpacks.catalog = cluster;
        buildpacks.clock = clock;
        buildpacks.held = held;
        BuildpackService service = new BuildpackService();
        service.catalog = cluster;
        service.builders = cluster;
        service.resolutions = resolutions;
        service.reconciler = buildpacks;
        service.loop = loop;
        service.guard = guard;
        return service;
    }

    static ObjectNode json(String s) {
        try {
            return (ObjectNode) JSON.readTree(s);
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    static final Consumer<InMemoryBuildpacks> JAVA = c -> c.put(json("""
            {"apiVersion": "kpack.io/v1alpha2", "kind": "ClusterBuildpack", "metadata": {"name": "java", "generation": 1},
             "spec": {"source": {"image": "%s"}}}""".formatted(IMAGE)));

    static final Consumer<InMemoryBuildpacks> BUILDER_OF_JAVA = c -> c.put(json("""
            {"apiVersion": "kpack.io/v1alpha2", "kind": "Builder",
             "metadata": {"name": "builder", "namespace": "team", "generation": 1},
             "spec": {"tag": "registry.local/builders/team", "serviceAccountName": "default",
                      "order": [{"group": [{"id": "paketo-buildpacks/java"}]}]}}"""));

    static final Consumer<InMemoryBuildpacks> READABLE = c -> c.images.put(IMAGE,
            new ImageRead.Found(BuildpackStatusPlannerTest.javaImage()));

    static final Consumer<InMemoryBuildpacks> PUBLISHED = JAVA.andThen(BUILDER_OF_JAVA).andThen(READABLE);

    static final BuildpackInput JAVA_CHANGED = new BuildpackChanged("ClusterBuildpack", null, "java", null);

    /** The world after the ClusterBuildpack's first event: both statuses written. */
    static Consumer<InMemoryBuildpacks> resolved() {
        return PUBLISHED.andThen(c -> {
            service(c).handle(JAVA_CHANGED);
            c.writes.clear();
            c.imageReads.clear();
        });
    }

    static Stream<Case> cases() {
        return Stream.of(
                new Case("a ClusterBuildpack's first event writes its status, then its Builder's", PUBLISHED,
                        JAVA_CHANGED, List.of(CBP, BUILDER), "applied", "StatusWritten"),
                new Case("the same event again writes nothing", resolved(), JAVA_CHANGED,
                        List.of(), "unchanged", "StatusUpToDate"),
                new Case("an unreadable image is reported; no Builder's resolution changes by it",
                        JAVA.andThen(BUILDER_OF_JAVA), JAVA_CHANGED, List.of(CBP), "applied", "StatusWritten"),
                new Case("a Builder write that loses a race is resolved again and written",
                        PUBLISHED.andThen(c -> c.failNext("status", null).failNext("status", Failures.conflict("s"))),
                        JAVA_CHANGED, List.of(CBP, BUILDER + " (failed)", BUILDER), "applied", "StatusWritten"),
                new Case("a ClusterBuildpack's status written, then its Builder refused: both said, the refusal named",
                        PUBLISHED.andThen(c -> c.failNext("status", null).failNext("status", Failures.refused("s", 403))),
                        JAVA_CHANGED, List.of(CBP, BUILDER + " (failed)"), "applied", "StatusWritten"),
                new Case("a Builder event resolves that Builder alone", resolved().andThen(c -> c.objects.values()
                        .forEach(o -> o.remove("status"))), new BuilderChanged("Builder", "team", "builder"),
                        List.of(BUILDER), "applied", "StatusWritten"),
                new Case("a Builder the apiserver refuses to write is rejected",
                        resolved().andThen(c -> c.objects.values().forEach(o -> o.remove("status")))
                                .andThen(c -> c.failNext("status", Failures.refused("s", 403))),
                        new BuilderChanged("Builder", "team", "builder"), List.of(BUILDER + " (failed)"), "rejected",
                        "ApiRefused"),
                new Case("a Builder that is gone", PUBLISHED, new BuilderChanged("Builder", "team", "gone"),
                        List.of(), "unchanged", "BuilderNotFound"),
                new Case("a deleted Builder needs nothing", PUBLISHED, new BuilderDeleted("Builder", "team", "builder"),
                        List.of(), "unchanged", "BuilderDeleted"),
                new Case("a push of the buildpackage's repository refreshes what names it", PUBLISHED,
                        new Published(ImageReference.parse(IMAGE)), List.of(CBP, BUILDER), "applied", "StatusWritten"),
                new Case("a push nobody names", PUBLISHED, new Published(ImageReference.parse("registry.local/other:1")),
                        List.of(), "unchanged", "NothingAffected"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void writesAndReply(Case c) {
        InMemoryBuildpacks cluster = new InMemoryBuildpacks();
        c.given().accept(cluster);
        Reply reply = service(cluster).handle(c.event());
        assertEquals(c.writes(), cluster.writes, "writes, in order; reply " + reply);
        assertEquals(c.outcome() + "/" + c.reason(), reply.outcome().wire() + "/" + reply.reason(), reply.message());
    }

    @Test
    void anUnreachableRegistryFailsTheEventForRedeliveryWithoutWriting() {
        InMemoryBuildpacks cluster = new InMemoryBuildpacks();
        PUBLISHED.accept(cluster);
        cluster.failNext("read", Failures.unavailable("registry"));
        assertThrows(TransientFailureException.class, () -> service(cluster).handle(JAVA_CHANGED));
        assertEquals(List.of(), cluster.writes);
    }

    @Test
    void aBuilderRefusedAfterItsBuildpackWasWrittenIsNamedBesideTheWrite() {
        InMemoryBuildpacks cluster = new InMemoryBuildpacks();
        PUBLISHED.andThen(c -> c.failNext("status", null).failNext("status", Failures.refused("s", 403))).accept(cluster);
        Reply reply = service(cluster).handle(JAVA_CHANGED);
        assertEquals(List.of("kpack.io/v1alpha2 ClusterBuildpack java", "kpack.io/v1alpha2 Builder team/builder"),
                reply.objects().stream().map(o -> o.apiVersion() + " " + o.kind() + " "
                        + (o.namespace() == null ? "" : o.namespace() + "/") + o.name()).toList());
        assertTrue(reply.message().startsWith("wrote "), reply.message());
        assertTrue(reply.message().contains("refused"), reply.message());
    }

    @Test
    void aBuilderEventReadsNoBuildpackageImage() {
        InMemoryBuildpacks cluster = new InMemoryBuildpacks();
        resolved().accept(cluster);
        service(cluster).handle(new BuilderChanged("Builder", "team", "builder"));
        assertEquals(List.of(), cluster.imageReads, "Builders resolve from the catalog's statuses");
    }
}
