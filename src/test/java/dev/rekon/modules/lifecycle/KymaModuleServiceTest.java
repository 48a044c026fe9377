package dev.rekon.modules.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import dev.rekon.core.ConflictException;
import dev.rekon.core.NamespacePolicy;
import dev.rekon.core.Reply;
import dev.rekon.core.TransientFailureException;
import dev.rekon.modules.lifecycle.status.LifecycleRow;
import dev.rekon.testing.Failures;

/**
 * {@link KymaModuleService} and {@link KymaModuleReconciler} over an in-memory gateway: given the cluster and an
 * input, these writes in this order, these Events on the Kyma, this reply, and this row on the status page.
 */
class KymaModuleServiceTest {

    static final String KYMA_REF = "Kyma kcp/default";
    static final String CRD = "CustomResourceDefinition widgets.e2e.rekon.dev";
    static final List<String> APPLY_0_4_1 = List.of("apply " + CRD, "apply Namespace widgets",
            "apply ServiceAccount widgets/controller", "apply ConfigMap widgets/settings",
            "apply Deployment widgets/controller", "apply Widget widgets/default");

    /** Given a scene, what the input does. */
    interface Given {
        void on(LifecycleScene s) throws Exception;
    }

    record Case(String name, Given given, Function<LifecycleScene, Reply> input, List<String> writes,
            List<String> events, String reply, String row, int objectsLeft) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Reply kymaEvent(LifecycleScene s) {
        return s.service.kymaChanged(LifecycleScene.KCP, "default");
    }

    static Reply releaseEvent(LifecycleScene s) {
        return s.service.releaseChanged(LifecycleScene.KCP, LifecycleScene.MODULE);
    }

    static List<String> concat(List<String> a, String... more) {
        return Stream.concat(a.stream(), Stream.of(more)).toList();
    }

    static Stream<Case> cases() {
        return Stream.of(
                new Case("a Kyma listing the module installs it, written ahead, staged",
                        s -> s.publish("0.4.1", false).channel("0.4.1").kyma(true), KymaModuleServiceTest::kymaEvent,
                        concat(List.of("inventory 6 objects at -"), concat(APPLY_0_4_1, "inventory 6 objects at 0.4.1",
                                "status Kyma kcp/default Ready").toArray(String[]::new)),
                        List.of("Normal ModuleInstalled " + KYMA_REF), "applied/ModuleInstalled",
                        "Ready 0.4.1, 6 objects, pending prunes [], conflicts []", 6),
                new Case("the same event again writes nothing", LifecycleScene::installed,
                        KymaModuleServiceTest::kymaEvent, List.of(), List.of(), "unchanged/ModuleInSync",
                        "Ready 0.4.1, 6 objects, pending prunes [], conflicts []", 6),
                new Case("a new release on the channel upgrades and prunes what it dropped",
                        s -> s.installed().publish("1.0.0", false).channel("1.0.0"),
                        KymaModuleServiceTest::releaseEvent, List.of("apply Deployment widgets/controller",
                                "delete ConfigMap widgets/settings", "inventory 5 objects at 1.0.0",
                                "status Kyma kcp/default Ready"),
                        List.of("Normal ModuleUpgraded " + KYMA_REF), "applied/ModuleUpgraded",
                        "Ready 1.0.0, 5 objects, pending prunes [], conflicts []", 5),
                new Case("an uninstall waits for a resource of the module's CRD, its default CR deleted first",
                        s -> s.installed().kyma(null).cluster.put(LifecycleScene.object(LifecycleScene.GROUP + "/v1",
                                "Widget", "users-own", null)),
                        KymaModuleServiceTest::kymaEvent, List.of("delete Widget widgets/default",
                                "status Kyma kcp/default Deleting"),
                        List.of("Normal ModuleDeleting " + KYMA_REF), "applied/ModuleDeleting",
                        "Deleting 0.4.1, 6 objects, pending prunes [], conflicts []", 6),
                new Case("once that resource is gone the uninstall continues, in reverse stages, CRD last",
                        s -> {
                            s.installed().kyma(null).cluster.put(LifecycleScene.object(LifecycleScene.GROUP + "/v1",
                                    "Widget", "users-own", null));
                            kymaEvent(s);
                            s.cluster.delete(new dev.rekon.manifests.LiveObject(new dev.rekon.core.ObjectRef(
                                    LifecycleScene.GROUP + "/v1", "Widget", "widgets", "users-own"), null, null));
                            s.forgetLogs();
                        },
                        KymaModuleServiceTest::kymaEvent, List.of("delete Deployment widgets/controller",
                                "delete ConfigMap widgets/settings", "delete ServiceAccount widgets/controller",
                                "delete Namespace widgets", "delete " + CRD, "forget inventory",
                                "status Kyma kcp/default Ready"),
                        List.of("Normal ModuleUninstalled " + KYMA_REF), "applied/ModuleUninstalled", "none", 0),
                new Case("an object of another module is a conflict: nothing applied",
                        s -> s.publish("0.4.1", false).channel("0.4.1").kyma(true).cluster.put(LifecycleScene.object("v1",
                                "ConfigMap", "settings", "other")),
                        KymaModuleServiceTest::kymaEvent, List.of("status Kyma kcp/default Error"),
                        List.of("Warning Conflict " + KYMA_REF), "rejected/Conflict",
                        "Error -, 0 objects, pending prunes [], conflicts [ConfigMap widgets/settings]", 1),
                new Case("a blob that does not match its digest is refused: nothing applied",
                        s -> s.publish("0.4.1", true).channel("0.4.1").kyma(true), KymaModuleServiceTest::kymaEvent,
                        List.of("status Kyma kcp/default Error"), List.of("Warning ManifestRefused " + KYMA_REF),
                        "rejected/ManifestRefused", "Error -, 0 objects, pending prunes [], conflicts []", 0),
                new Case("managed: false forgets the inventory and leaves every object",
                        s -> s.installed().kyma(false), KymaModuleServiceTest::kymaEvent,
                        List.of("forget inventory", "status Kyma kcp/default Unmanaged"),
                        List.of("Normal Unmanaged " + KYMA_REF), "unchanged/Unmanaged",
                        "Unmanaged 0.4.1, 0 objects, pending prunes [], conflicts []", 6));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void writesEventsReplyAndStatusRow(Case c) throws Exception {
        LifecycleScene scene = scene(c.given());
        Reply reply = c.input().apply(scene);
        assertEquals(c.writes(), scene.cluster.writes, "writes, in order; reply " + reply);
        assertEquals(c.events(), scene.events.recorded, "Events");
        assertEquals(c.reply(), reply.outcome().wire() + "/" + reply.reason(), reply.message());
        assertEquals(c.row(), row(scene.board.rows(LifecycleScene.KCP)));
        assertEquals(c.objectsLeft(), scene.cluster.objects.size(), "objects in the cluster after");
    }

    @Test
    void whileADowngradeIsRefusedTheInstalledReleaseIsKeptAsItDeclares() throws Exception {
        LifecycleScene scene = new LifecycleScene().installed();
        scene.publish("1.0.0", false).channel("1.0.0");
        assertEquals("applied/ModuleUpgraded", outcome(releaseEvent(scene)));
        scene.channel("0.4.1").forgetLogs();
        scene.cluster.objects.remove(dev.rekon.manifests.Identity.key(new dev.rekon.core.ObjectRef("v1",
                "ServiceAccount", "widgets", "controller")));

        Reply reply = kymaEvent(scene);
        assertEquals("rejected/DowngradeRefused", outcome(reply), reply.message());
        assertEquals(List.of("apply ServiceAccount widgets/controller", "status Kyma kcp/default Error"),
                scene.cluster.writes, "the object deleted by hand is created again; nothing pruned");
        assertEquals("1.0.0", scene.cluster.inventories.values().iterator().next().version());
        assertEquals(List.of(), kymaEventWrites(scene), "a second pass finds it kept");
    }

    @Test
    void anUnmanagedModuleIsWrittenOnceAndKeepsTheVersionItWasLeftAt() throws Exception {
        LifecycleScene scene = new LifecycleScene().installed().kyma(false);
        assertEquals("unchanged/Unmanaged", outcome(kymaEvent(scene)));
        assertEquals(List.of(), kymaEventWrites(scene), "a second event finds the status as the first wrote it");
        assertEquals("0.4.1", scene.cluster.kymas.get("kcp/default").at("/status/modules/0/version").asText());
    }

    /** A fresh scene as given, its logs of writes, Events and calls cleared. */
    static LifecycleScene scene(Given given) throws Exception {
        LifecycleScene scene = new LifecycleScene();
        given.on(scene);
        scene.forgetLogs().cluster.calls.clear();
        return scene;
    }

    static String outcome(Reply reply) {
        return reply.outcome().wire() + "/" + reply.reason();
    }

    static List<String> kymaEventWrites(LifecycleScene scene) {
        scene.forgetLogs();
        kymaEvent(scene);
        return List.copyOf(scene.cluster.writes);
    }

    @Test
    void aKymaOutsideTheAllowedNamespacesIsRefusedBeforeAnyRead() throws Exception {
        LifecycleScene scene = new LifecycleScene(NamespacePolicy.parse("team"));
        scene.publish("0.4.1", false).channel("0.4.1").kyma(true);
        scene.cluster.forbidden.add(LifecycleScene.KCP);
        for (Reply reply : List.of(kymaEvent(scene), releaseEvent(scene))) {
            assertEquals("rejected/" + NamespacePolicy.REASON, reply.outcome().wire() + "/" + reply.reason(),
                    reply.message());
        }
        assertEquals(List.of(), scene.cluster.writes);
    }

    /** 409s and outages: what the service writes when the apiserver loses a race or does not answer. */
    record Failing(String name, Given given, List<String> writes, List<String> statusCalls, List<String> events,
            String reply) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Failing> failing() {
        return Stream.of(
                new Failing("a 409 on the Kyma status write is planned again once, from fresh reads",
                        s -> s.publish("0.4.1", false).channel("0.4.1").kyma(true).cluster
                                .failNext("status", Failures.conflict("writing the status of " + KYMA_REF)),
                        concat(List.of("inventory 6 objects at -"), concat(APPLY_0_4_1, "inventory 6 objects at 0.4.1",
                                "status Kyma kcp/default Ready").toArray(String[]::new)),
                        List.of("status", "status"), List.of("Normal ModuleInstalled " + KYMA_REF,
                                "Normal ModuleInSync " + KYMA_REF),
                        // The reply is the last attempt's: by then the module runs as its channel offers.
                        "unchanged/ModuleInSync"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("failing")
    void aConflictIsPlannedAgainOnce(Failing c) throws Exception {
        LifecycleScene scene = scene(c.given());
        Reply reply = kymaEvent(scene);
        assertEquals(c.writes(), scene.cluster.writes, "writes, in order; reply " + reply);
        assertEquals(c.statusCalls(), scene.cluster.calls.stream().filter("status"::equals).toList(),
                "the status write is tried twice: the 409, then once more from the fresh plan");
        assertEquals(c.events(), scene.events.recorded, "Events: the install the first attempt did is told");
        assertEquals(c.reply(), outcome(reply), reply.message());
    }

    @Test
    void anApiserverOutageAnswersTransientAndWritesNothing() throws Exception {
        LifecycleScene scene = new LifecycleScene();
        scene.publish("0.4.1", false).channel("0.4.1").kyma(true).forgetLogs();
        scene.cluster.down = true;
        for (Function<LifecycleScene, Reply> input : List.<Function<LifecycleScene, Reply>>of(
                KymaModuleServiceTest::kymaEvent, KymaModuleServiceTest::releaseEvent)) {
            TransientFailureException e = assertThrows(TransientFailureException.class, () -> input.apply(scene));
            assertFalse(e instanceof ConflictException, "an outage is no conflict: " + e);
        }
        assertEquals(List.of(), scene.cluster.writes);
        assertEquals(List.of(), scene.events.recorded, "no Event claims what was not done");
    }

    @Test
    void anOutageAtTheFirstWriteAnswersTransientAndWritesNothing() throws Exception {
        LifecycleScene scene = new LifecycleScene();
        scene.publish("0.4.1", false).channel("0.4.1").kyma(true).forgetLogs();
        scene.cluster.writesDown = true;
        assertThrows(TransientFailureException.class, () -> kymaEvent(scene));
        assertEquals(List.of(), scene.cluster.writes);
        assertEquals(List.of("inventory"), scene.cluster.calls.stream().filter(c -> !c.equals("read")).toList(),
                "the write-ahead of the inventory failed, so nothing was applied after it");
        assertEquals(List.of(), scene.events.recorded);
    }

    static String row(List<LifecycleRow> rows) {
        if (rows.isEmpty()) {
            return "none";
        }
        LifecycleRow r = rows.get(0);
        return r.state() + " " + (r.version() == null ? "-" : r.version()) + ", " + r.objects() + " objects, pending prunes "
                + r.pendingPrunes() + ", conflicts " + r.conflicts().stream().map(Object::toString).toList();
    }
}
