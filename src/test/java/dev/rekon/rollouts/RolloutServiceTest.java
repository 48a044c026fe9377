package dev.rekon.rollouts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.cluster.Conditions;
import dev.rekon.core.NamespacePolicy;
import dev.rekon.core.Reply;
import dev.rekon.core.TransientFailureException;
import dev.rekon.pipeline.NamespaceGuard;
import dev.rekon.pipeline.ReconcileLoop;
import dev.rekon.resync.AreaResult;
import dev.rekon.rollouts.RolloutInput.ImageDeployDeleted;
import dev.rekon.rollouts.RolloutInput.ImageReported;
import dev.rekon.rollouts.plan.RolloutPlanner;
import dev.rekon.rollouts.view.KpackImage;
import dev.rekon.rollouts.view.RolloutNames;
import dev.rekon.testing.Failures;
import dev.rekon.testing.RecordingEvents;

/**
 * {@link RolloutService}'s orchestration over in-memory gateways: given the cluster's objects and an event, these
 * writes in this order and this reply, with conflicts, refusals and outages included.
 */
class RolloutServiceTest {

    static final ObjectMapper JSON = new ObjectMapper();
    static final String V1 = "registry.local/team/app@sha256:" + "1".repeat(64);
    static final String V2 = "registry.local/team/app@sha256:" + "2".repeat(64);
    static final String CREATE = "create Deployment team/shop-web";
    static final String PATCH = "patch Deployment team/shop-web";
    static final String STATUS = "status ImageDeploy team/shop";

    /** The cluster, Rekon's service over it, and what it wrote. */
    static final class World {
        final InMemoryRollouts cluster = new InMemoryRollouts();
        final RecordingEvents events = new RecordingEvents();
        final RolloutService service = new RolloutService();

        final Reconcilers reconcilers = new Reconcilers(cluster, events);

        World() {
            OrphanReconciler orphans = new OrphanReconciler();
            orphans.gateway = cluster;
            service.gateway = cluster;
            service.rollouts = reconcilers.rollouts;
            service.orphans = orphans;
            service.loop = LOOP;
        }

        Reply handle(RolloutInput input) {
            return reconcilers.settled(() -> service.handle(input));
        }

        /** Runs the event as history: its writes are not the case's. */
        World after(RolloutInput input) {
            handle(input);
            cluster.writes.clear();
            events.recorded.clear();
            return this;
        }
    }

    static final ReconcileLoop LOOP = ReconcileLoop.of(NamespaceGuard.of(NamespacePolicy.parse("team")));

    /**
     * The rollout and push reconcilers over the in-memory cluster, writing through an applier that records Events,
     * and their status passes, run at once after the reply.
     */
    static final class Reconcilers {
        final RolloutReconciler rollouts = new RolloutReconciler();
        final PushReconciler pushes = new PushReconciler();
        final StatusPasses passes = new StatusPasses();
        /** The CDEvents the applier hands on, as "change image" of "namespace/name". */
        final List<String> cdEvents = new java.util.concurrent.CopyOnWriteArrayList<>();
        /** What the applier told the other areas, as "kind namespace/name at version (written)". */
        final List<String> told = new java.util.concurrent.CopyOnWriteArrayList<>();

        Reconcilers(InMemoryRollouts cluster, RecordingEvents events) {
            RolloutApplier applier = new RolloutApplier();
            applier.gateway = cluster;
            applier.events = events;
            applier.statusPasses = passes;
            applier.cdEvents = new dev.rekon.rollouts.apply.CdEventGateway() {
                @Override
                public void rolledOut(dev.rekon.rollouts.view.ImageDeployView idp,
                        List<dev.rekon.rollouts.view.RolloutRecord> records) {
                    records.forEach(r -> cdEvents.add(r.change() + " " + r.image() + " of " + idp.namespace() + "/"
                            + idp.name()));
                }
            };
            applier.notices = new RolloutNotices() {
                @Override
                public void tell(RolloutObserved o) {
                    told.add(o.kind() + " " + o.namespace() + "/" + o.name() + " at " + o.resourceVersion()
                            + (o.written() ? " (written)" : ""));
                }
            };
            for (ImageDeployReconciler<?, ?> r : List.of(rollouts, pushes)) {
                r.gateway = cluster;
                r.applier = applier;
                r.clock = Clock.fixed(Instant.parse("2026-11-23T10:00:00Z"), ZoneOffset.UTC);
            }
            passes.loop = LOOP;
            passes.rollouts = rollouts;
            passes.pushes = pushes;
            passes.interval = Duration.ZERO;
            passes.start();
        }

        /** The reply, once the status passes it queued have run. */
        Reply settled(java.util.function.Supplier<Reply> input) {
            Reply reply = input.get();
            assertTrue(passes.awaitIdle(Duration.ofSeconds(10)), "status passes run");
            return reply;
        }
    }

    record Case(String name, Consumer<World> given, RolloutInput event, List<String> writes, String outcome,
            String reason, int objects) {
        @Override
        public String toString() {
            return name;
        }
    }

    static KpackImage app(String latest, long build, boolean ready) {
        return new KpackImage("team", "app", "uid-app", latest, build, null, ready, ready ? null : "build failed");
    }

    static ImageReported built(String latest, long build) {
        return ImageReported.of(app(latest, build, true));
    }

    static Consumer<World> imageDeploy(String name, String deployment) {
        return w -> w.cluster.imageDeploys.put("team/" + name, (ObjectNode) json("""
                {"apiVersion": "rekon.dev/v1alpha1", "kind": "ImageDeploy",
                 "metadata": {"name": "%s", "namespace": "team", "uid": "uid-%s", "resourceVersion": "7", "generation": 1},
                 "spec": {"deployment": {"metadata": {"name": "%s"},
                   "spec": {"selector": {"matchLabels": {"app": "%s"}},
                     "template": {"metadata": {"labels": {"app": "%s"}},
                       "spec": {"containers": [{"name": "web", "image": "REF=app"}]}}}}}}
                """.formatted(name, name, deployment, name, name)));
    }

    static final Consumer<World> SHOP = imageDeploy("shop", "shop-web");

    static Consumer<World> shopAt(long build, String latest) {
        return SHOP.andThen(w -> w.after(built(latest, build)));
    }

    static Stream<Case> cases() {
        return Stream.of(
                new Case("a first build creates the Deployment, then reports it", SHOP, built(V1, 1),
                        List.of(CREATE, STATUS), "applied", "DeploymentCreated", 2),
                new Case("the same build again writes nothing", shopAt(1, V1), built(V1, 1),
                        List.of(), "unchanged", "UpToDate", 2),
                new Case("a newer build patches the Deployment", shopAt(1, V1), built(V2, 2),
                        List.of(PATCH, STATUS), "applied", "ImageUpdated", 2),
                new Case("an older build after a newer one changes nothing", shopAt(2, V2), built(V1, 1),
                        List.of(), "unchanged", "OlderBuild", 2),
                new Case("a lagging cache costs one lost race and a fresh read",
                        shopAt(1, V1).andThen(w -> w.cluster.staleCache.put("team/shop-web", staleCopy(w))),
                        built(V2, 2), List.of(PATCH + " (conflict)", PATCH, STATUS), "applied", "ImageUpdated", 2),
                new Case("a status report that loses a race is planned again and written",
                        SHOP.andThen(w -> w.cluster.failNext("status", Failures.conflict("status"))), built(V1, 1),
                        List.of(CREATE, STATUS + " (failed)", STATUS), "applied", "DeploymentCreated", 2),
                new Case("a create the apiserver refuses is rejected, naming both objects",
                        SHOP.andThen(w -> w.cluster.failNext("create", Failures.refused("create", 403))), built(V1, 1),
                        List.of(CREATE + " (failed)"), "rejected", "ApiRefused", 2),
                new Case("a name taken by a Deployment Rekon does not manage is a conflict, not a create",
                        SHOP.andThen(nameTaken("shop-web")), built(V1, 1), List.of(STATUS), "rejected",
                        RolloutPlanner.CONFLICT, 2),
                new Case("an Image that is not ready rolls nothing out", SHOP, ImageReported.of(app(V1, 1, false)),
                        List.of(), "unchanged", "ImageNotReady", 0),
                new Case("an Image no ImageDeploy references", w -> { }, built(V1, 1),
                        List.of(), "unchanged", "NoImageDeploys", 0),
                new Case("a Reference-mode event reads the Image",
                        SHOP.andThen(w -> w.cluster.images.put("team/app", app(V1, 1, true))),
                        new ImageReported("team", "app", null), List.of(CREATE, STATUS), "applied", "DeploymentCreated", 2),
                new Case("a Reference-mode event for an Image that is gone", SHOP, new ImageReported("team", "app", null),
                        List.of(), "unchanged", "ImageNotFound", 0),
                new Case("of two ImageDeploys one refused: applied leads, all four objects named",
                        SHOP.andThen(imageDeploy("shop2", "shop2-web"))
                                .andThen(w -> w.cluster.failNext("create", Failures.refused("create", 422))),
                        built(V1, 1), List.of(CREATE + " (failed)", "create Deployment team/shop2-web",
                                "status ImageDeploy team/shop2"), "applied", "DeploymentCreated", 4),
                new Case("a deleted ImageDeploy's own Deployment is deleted",
                        shopAt(1, V1).andThen(w -> w.cluster.imageDeploys.clear()),
                        new ImageDeployDeleted(RolloutNames.GROUP, "team", "shop", "uid-shop", "shop-web"),
                        List.of("delete Deployment team/shop-web"), "applied", "DeploymentDeleted", 1),
                new Case("a delete that loses a race is planned again from a fresh read, then made",
                        shopAt(1, V1).andThen(w -> w.cluster.imageDeploys.clear())
                                .andThen(w -> w.cluster.failNext("delete", Failures.conflict("delete"))),
                        new ImageDeployDeleted(RolloutNames.GROUP, "team", "shop", "uid-shop", "shop-web"),
                        List.of("delete Deployment team/shop-web (failed)", "delete Deployment team/shop-web"),
                        "applied", "DeploymentDeleted", 1),
                new Case("a Deployment the deleted ImageDeploy does not own stays",
                        shopAt(1, V1).andThen(w -> w.cluster.imageDeploys.clear()),
                        new ImageDeployDeleted(RolloutNames.GROUP, "team", "shop", "another-uid", "shop-web"),
                        List.of(), "unchanged", "NotOwned", 1),
                new Case("a Reference-mode delete finds the Deployment by Rekon's label",
                        shopAt(1, V1).andThen(w -> w.cluster.imageDeploys.clear()),
                        new ImageDeployDeleted(RolloutNames.GROUP, "team", "shop", null, null),
                        List.of("delete Deployment team/shop-web"), "applied", "DeploymentDeleted", 1));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void writesAndReply(Case c) {
        World world = new World();
        c.given().accept(world);
        Reply reply = world.handle(c.event());
        assertEquals(c.writes(), world.cluster.writes, "writes, in order");
        assertEquals(c.outcome() + "/" + c.reason(), reply.outcome().wire() + "/" + reply.reason(), reply.message());
        assertEquals(c.objects(), reply.objects().size(), "objects named: " + reply.objects());
    }

    @Test
    void aRolloutRecordsAnEventOnBothObjects() {
        World world = new World();
        SHOP.accept(world);
        world.handle(built(V1, 1));
        assertEquals(List.of("Normal DeploymentCreated ImageDeploy team/shop",
                "Normal DeploymentCreated Deployment team/shop-web"), world.events.recorded);
        world.events.recorded.clear();
        world.handle(built(V1, 1));
        assertEquals(List.of(), world.events.recorded, "no Event for a change that did not happen");
    }

    /**
     * A status this process writes is told to the other areas with the version the write gave it (a promotion with
     * a stage listing the ImageDeploy hears of it then, not once an ApiServerSource sends it back); a status write
     * that loses its race tells nothing, and a pass that writes nothing tells nothing.
     */
    @Test
    void aStatusWrittenIsToldWithTheVersionItGave() {
        World world = new World();
        SHOP.andThen(w -> w.cluster.failNext("status", Failures.conflict("status"))).accept(world);
        world.handle(built(V1, 1));
        String version = world.cluster.imageDeploys.get("team/shop").at("/metadata/resourceVersion").asText();
        assertEquals(List.of("ImageDeploy team/shop at " + version + " (written)"), world.reconcilers.told);
        world.reconcilers.told.clear();
        world.handle(built(V1, 1));
        assertEquals(List.of(), world.reconcilers.told, "nothing written, nothing told");
    }

    @Test
    void aStatusThatLostItsRaceIsWrittenFromFreshReadsAndStillTellsOfTheRollout() {
        World world = new World();
        SHOP.andThen(w -> w.cluster.failNext("status", Failures.conflict("status"))).accept(world);
        world.handle(built(V1, 1));
        JsonNode status = world.cluster.imageDeploys.get("team/shop").path("status");
        assertEquals(V1, status.path("images").path(0).path("image").asText(), "the build applied is recorded");
        assertEquals(1, status.path("images").path(0).path("buildCounter").asLong());
        JsonNode progressing = Conditions.find(status.path("conditions"), RolloutPlanner.PROGRESSING);
        assertEquals("True/DeploymentCreated", progressing.path("status").asText() + "/" + progressing.path("reason").asText());
        assertEquals(List.of("Normal DeploymentCreated ImageDeploy team/shop",
                "Normal DeploymentCreated Deployment team/shop-web"), world.events.recorded, "one Event each, not two");
    }

    @Test
    void aConflictOnEveryAttemptIsTransientAfterTheBudget() {
        World world = new World();
        shopAt(1, V1).accept(world);
        for (int i = 0; i < 20; i++) {
            world.cluster.failNext("patch", Failures.conflict("patch"));
        }
        assertThrows(TransientFailureException.class, () -> world.handle(built(V2, 2)));
        assertEquals(dev.rekon.pipeline.ConflictRetry.ATTEMPTS, world.cluster.writes.size(), world.cluster.writes.toString());
    }

    @Test
    void anUnavailableApiServerFailsTheEventForRedelivery() {
        World world = new World();
        SHOP.accept(world);
        world.cluster.failNext("create", Failures.unavailable("create"));
        assertThrows(TransientFailureException.class, () -> world.handle(built(V1, 1)));
        assertEquals(List.of(CREATE + " (failed)"), world.cluster.writes);
    }

    /** A Deployment someone else created under the name: no Rekon label, no owner, so no managed watch holds it. */
    static Consumer<World> nameTaken(String deployment) {
        return w -> w.cluster.deployments.put("team/" + deployment, (ObjectNode) json("""
                {"apiVersion": "apps/v1", "kind": "Deployment",
                 "metadata": {"name": "%s", "namespace": "team", "uid": "uid-foreign", "resourceVersion": "3"},
                 "spec": {"template": {"spec": {"containers": [{"name": "web", "image": "nginx:1.25"}]}}}}
                """.formatted(deployment)));
    }

    @Test
    void aNameTakenIsTheSameConflictInTheReportAndTheWriteWithOneReadOnlyThen() {
        World world = new World();
        SHOP.andThen(w -> w.cluster.images.put("team/app", app(V1, 1, true))).andThen(nameTaken("shop-web"))
                .accept(world);
        AreaResult report = RolloutPropertyTest.pass(world, true);
        assertEquals(List.of(), world.cluster.writes, "a report writes nothing");
        assertEquals(List.of("get Deployment team/shop-web"), world.cluster.reads,
                "the one read: the name of the Deployment the plan would create");
        assertEquals(Set.of("shop"), RolloutPropertyTest.names(report, "conflict"));
        assertEquals(Set.of(), RolloutPropertyTest.names(report, "changed"), "no create claimed");

        AreaResult written = RolloutPropertyTest.pass(world, false);
        assertEquals(Set.of("shop"), RolloutPropertyTest.names(written, "conflict"));
        assertEquals(List.of(STATUS), world.cluster.writes, "only the status saying so; the Deployment is left alone");
        assertEquals("nginx:1.25", world.cluster.deployments.get("team/shop-web")
                .at("/spec/template/spec/containers/0/image").asText());
        JsonNode ready = Conditions.find(world.cluster.imageDeploys.get("team/shop").path("status").path("conditions"),
                RolloutPlanner.READY);
        assertEquals("False/" + RolloutPlanner.CONFLICT, ready.path("status").asText() + "/" + ready.path("reason").asText());
    }

    @Test
    void aFreeNameIsNotReadBeforeItsCreate() {
        World world = new World();
        SHOP.andThen(w -> w.cluster.images.put("team/app", app(V1, 1, true))).accept(world);
        AreaResult report = RolloutPropertyTest.pass(world, true);
        assertEquals(List.of(), world.cluster.reads, "the watch shows the name free: no read");
        assertEquals(Set.of("shop"), RolloutPropertyTest.names(report, "changed"));
        AreaResult written = RolloutPropertyTest.pass(world, false);
        assertEquals(Set.of("shop"), RolloutPropertyTest.names(written, "changed"));
        assertEquals(List.of(CREATE, STATUS), world.cluster.writes);
    }

    @Test
    void aConvergedPassReadsNoDeployment() {
        World world = new World();
        shopAt(1, V1).andThen(w -> w.cluster.images.put("team/app", app(V1, 1, true))).accept(world);
        RolloutPropertyTest.pass(world, false);
        world.cluster.reads.clear();
        world.cluster.writes.clear();
        AreaResult report = RolloutPropertyTest.pass(world, true);
        assertEquals(List.of(), world.cluster.reads, "a converged pass makes no API call for its Deployments");
        assertEquals(List.of(), world.cluster.writes);
        assertEquals(1, report.unchanged(), report.toString());
    }

    /** The stored Deployment as a watch that has not seen its last write would show it. */
    static ObjectNode staleCopy(World w) {
        ObjectNode copy = w.cluster.deployments.get("team/shop-web").deepCopy();
        ((ObjectNode) copy.get("metadata")).put("resourceVersion", "1");
        return copy;
    }

    static com.fasterxml.jackson.databind.JsonNode json(String s) {
        try {
            return JSON.readTree(s);
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }
}
