package dev.rekon.rollouts;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.cluster.Conditions;
import dev.rekon.core.Reply;
import dev.rekon.rollouts.view.PushSubscriber;
import dev.rekon.rollouts.watch.ImageDeployPushIndex;
import dev.rekon.testing.Failures;
import dev.rekon.testing.RecordingEvents;
import dev.rekon.webhooks.ImagePushed;

/**
 * {@link RolloutPushRouter} over the in-memory cluster: given an ImageDeploy following a repository under its
 * update policy and a push, these writes in this order (which object, which image, which status) and this reply,
 * with lost races, refusals and redeliveries included.
 */
class RolloutPushRouterTest {

    static final String REPO = "registry.local:5000/team/api";
    static final String DIGEST = "sha256:" + "3".repeat(64);
    static final String PATCH = "patch Deployment team/shop-api";
    static final String STATUS = "status ImageDeploy team/shop";

    /** The cluster, the router over it through the one loop, and what it wrote. */
    static final class World {
        final InMemoryRollouts cluster = new InMemoryRollouts();
        final RecordingEvents events = new RecordingEvents();
        final RolloutPushRouter router = new RolloutPushRouter();

        final RolloutServiceTest.Reconcilers reconcilers = new RolloutServiceTest.Reconcilers(cluster, events);

        World() {
            router.pushes = reconcilers.pushes;
            router.loop = RolloutServiceTest.LOOP;
            router.index = new ImageDeployPushIndex() {
                @Override
                public List<PushSubscriber> following(String repositoryKey) {
                    return cluster.imageDeploys.values().stream().map(PushSubscriber::of)
                            .filter(s -> s.repositories().contains(repositoryKey)).toList();
                }
            };
            cluster.imageDeploys.put("team/shop", (ObjectNode) RolloutServiceTest.json("""
                    {"apiVersion": "rekon.dev/v1alpha1", "kind": "ImageDeploy",
                     "metadata": {"name": "shop", "namespace": "team", "uid": "uid-shop", "resourceVersion": "7", "generation": 1},
                     "spec": {"updatePolicy": {"semver": "^1.2"}, "deployment": {"metadata": {"name": "shop-api"},
                       "spec": {"template": {"spec": {"containers": [{"name": "api", "image": "%s:1.2.0"}]}}}}}}
                    """.formatted(REPO)));
            cluster.deployments.put("team/shop-api", (ObjectNode) RolloutServiceTest.json("""
                    {"apiVersion": "apps/v1", "kind": "Deployment",
                     "metadata": {"name": "shop-api", "namespace": "team", "resourceVersion": "40",
                       "labels": {"app.kubernetes.io/managed-by": "rekon"},
                       "ownerReferences": [{"kind": "ImageDeploy", "name": "shop", "uid": "uid-shop"}]},
                     "spec": {"template": {"spec": {"containers": [{"name": "api", "image": "%s:1.2.0"}]}}}}
                    """.formatted(REPO)));
        }

        Reply push(String tag) {
            return reconcilers.settled(() -> router.route(new ImagePushed("registry.local:5000", "team/api", tag,
                    tag == null ? null : DIGEST, null)));
        }

        /** Runs the push as history: its writes are not the case's. */
        World after(String tag) {
            push(tag);
            cluster.writes.clear();
            events.recorded.clear();
            return this;
        }

        /** Runs the push as history whose status pass met an outage: the status is left to the next input. */
        void afterUnavailableStatus(String tag) {
            cluster.failNext("status", Failures.unavailable("status"));
            push(tag);
            assertEquals(List.of(PATCH, STATUS + " (failed)"), cluster.writes);
            cluster.writes.clear();
            events.recorded.clear();
        }

        String running() {
            return cluster.deployments.get("team/shop-api").at("/spec/template/spec/containers/0/image").asText();
        }

        JsonNode status() {
            return cluster.imageDeploys.get("team/shop").path("status");
        }
    }

    /** A push, and what it must leave: the writes, the reply, the image the Deployment runs, the one the status records. */
    record Case(String name, Consumer<World> given, String tag, List<String> writes, String reply, String running,
            String recorded) {
        @Override
        public String toString() {
            return name;
        }
    }

    static String image(String tag) {
        return REPO + ":" + tag + "@" + DIGEST;
    }

    static final Consumer<World> NOTHING = w -> { };

    static Stream<Case> cases() {
        String v120 = REPO + ":1.2.0";
        return Stream.of(
                new Case("a version inside the range patches the Deployment, then records it in the status", NOTHING,
                        "1.3.0", List.of(PATCH, STATUS), "applied/ImageUpdated", image("1.3.0"), image("1.3.0")),
                new Case("the same push twice changes nothing", w -> w.after("1.3.0"), "1.3.0",
                        List.of(), "unchanged/UpToDate", image("1.3.0"), image("1.3.0")),
                new Case("a lower version after a higher one never goes backwards", w -> w.after("1.4.0"), "1.3.0",
                        List.of(), "unchanged/OlderVersion", image("1.4.0"), image("1.4.0")),
                new Case("a version outside the semver range changes nothing", NOTHING, "2.0.0",
                        List.of(), "unchanged/OutsidePolicy", v120, null),
                new Case("a push without a tag is no version", NOTHING, null,
                        List.of(), "unchanged/NotAVersion", v120, null),
                new Case("a lagging cache costs one lost race and a fresh read",
                        w -> w.cluster.staleCache.put("team/shop-api", stale(w)), "1.3.0",
                        List.of(PATCH + " (conflict)", PATCH, STATUS), "applied/ImageUpdated", image("1.3.0"), image("1.3.0")),
                new Case("a higher version that won the race is not replaced: planned again from fresh reads",
                        w -> w.after("1.4.0").cluster.staleCache.put("team/shop-api", stale(w)), "1.3.0",
                        List.of(PATCH + " (conflict)"), "unchanged/OlderVersion", image("1.4.0"), image("1.4.0")),
                new Case("a status write that loses a race is planned again and written, the push answered applied",
                        w -> w.cluster.failNext("status", Failures.conflict("status")), "1.3.0",
                        List.of(PATCH, STATUS + " (failed)", STATUS), "applied/ImageUpdated", image("1.3.0"), image("1.3.0")),
                new Case("the same push after the status pass failed writes the status alone",
                        w -> w.afterUnavailableStatus("1.3.0"), "1.3.0",
                        List.of(STATUS), "unchanged/UpToDate", image("1.3.0"), image("1.3.0")),
                new Case("a patch the apiserver refuses is rejected, naming both objects",
                        w -> w.cluster.failNext("patch", Failures.refused("patch", 403)), "1.3.0",
                        List.of(PATCH + " (failed)"), "rejected/ApiRefused", v120, null));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void writesAndReply(Case c) {
        World world = new World();
        c.given().accept(world);
        Reply reply = world.push(c.tag());
        assertEquals(c.writes(), world.cluster.writes, "writes, in order");
        assertEquals(c.reply(), reply.outcome().wire() + "/" + reply.reason(), reply.message());
        assertEquals(c.running(), world.running(), "the image the Deployment runs");
        JsonNode recorded = world.status().path("images").path(0);
        assertEquals(c.recorded(), recorded.isMissingNode() ? null : recorded.path("image").asText(),
                "the image the status records");
        if (c.recorded() != null) {
            assertEquals("container/api", recorded.path("name").asText());
            assertEquals("True", Conditions.find(world.status().path("conditions"), "Progressing").path("status").asText());
        }
        if (reply.reason().equals("ApiRefused")) {
            assertEquals("[ImageDeploy team/shop, Deployment team/shop-api]", reply.objects().toString());
        }
    }

    @Test
    void aRolloutRecordsAnEventOnBothObjectsOnce() {
        World world = new World();
        world.push("1.3.0");
        assertEquals(List.of("Normal ImageUpdated ImageDeploy team/shop", "Normal ImageUpdated Deployment team/shop-api"),
                world.events.recorded);
        world.events.recorded.clear();
        world.push("1.3.0");
        assertEquals(List.of(), world.events.recorded, "no Event for a change that did not happen");
    }

    /** The stored Deployment as a watch that has not seen its last write would show it. */
    static ObjectNode stale(World w) {
        ObjectNode copy = w.cluster.deployments.get("team/shop-api").deepCopy();
        ((ObjectNode) copy.get("metadata")).put("resourceVersion", "1");
        ((ObjectNode) copy.at("/spec/template/spec/containers/0")).put("image", REPO + ":1.2.0");
        return copy;
    }
}
