package dev.rekon.modules.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.core.NamespacePolicy;
import dev.rekon.core.ObjectRef;
import dev.rekon.modules.lifecycle.intent.DeclaredModule;
import dev.rekon.modules.lifecycle.intent.KymaView;
import dev.rekon.modules.lifecycle.intent.ModuleState;
import dev.rekon.manifests.Identity;
import dev.rekon.manifests.inventory.Inventory;
import dev.rekon.modules.lifecycle.plan.LifecyclePlan;
import dev.rekon.modules.lifecycle.plan.LifecyclePlan.Action;
import dev.rekon.modules.lifecycle.plan.LifecyclePlanner;
import dev.rekon.modules.lifecycle.plan.LifecycleViews;
import dev.rekon.manifests.LiveObject;
import dev.rekon.manifests.ManifestObjects;
import dev.rekon.modules.lifecycle.plan.ModuleObjects;
import dev.rekon.modules.lifecycle.plan.Release;
import dev.rekon.modules.lifecycle.plan.Resolution;
import dev.rekon.modules.manifest.ModuleManifest;

/** Table of the module lifecycle's decisions: views in, plan out, no I/O. */
class LifecyclePlannerTest {

    static final ObjectMapper JSON = new ObjectMapper();
    static final KymaModule KEY = new KymaModule("kcp", "default", "widgets");

    static ObjectNode object(String apiVersion, String kind, String ns, String name) {
        ObjectNode o = JSON.createObjectNode().put("apiVersion", apiVersion).put("kind", kind);
        ObjectNode meta = o.putObject("metadata").put("name", name);
        if (ns != null) {
            meta.put("namespace", ns);
        }
        return o;
    }

    static final ObjectNode NS = object("v1", "Namespace", null, "widgets");
    static final ObjectNode CRD = object("apiextensions.k8s.io/v1", "CustomResourceDefinition", null, "widgets.e2e");
    static final ObjectNode SA = object("v1", "ServiceAccount", "widgets", "controller");
    static final ObjectNode CM = object("v1", "ConfigMap", "widgets", "settings");
    static final ObjectNode DEPLOY = object("apps/v1", "Deployment", "widgets", "controller");
    static final ObjectNode CR = object("e2e/v1", "Widget", "widgets", "default");

    static Release release(String version, ObjectNode... objects) {
        return new Release("kcp/widgets-" + version, version, "regular", false, new ModuleManifest("widgets", version,
                List.of(objects), CR, "sha256:" + "a".repeat(64), ModuleManifest.Provenance.SIGNED, "test"), null);
    }

    /** Views of a Kyma listing the module (or not), an inventory at a version, and live objects as applied. */
    static LifecycleViews views(boolean declared, Inventory inventory, Release r, List<ObjectNode> live,
            NamespacePolicy namespaces) {
        Map<String, LiveObject> byKey = new HashMap<>();
        for (ObjectNode o : live) {
            ObjectNode labelled = ModuleObjects.labelled(o, "widgets");
            byKey.put(Identity.key(ManifestObjects.ref(o)), new LiveObject(ManifestObjects.ref(o), "widgets", labelled));
        }
        KymaView kyma = new KymaView("kcp", "default", "7", false, declared
                ? List.of(new DeclaredModule("widgets", "regular", true, true)) : List.of(), List.of(),
                JSON.createArrayNode());
        return new LifecycleViews(KEY, kyma, declared ? kyma.modules().get(0) : null, inventory,
                declared ? new Resolution.Found(r) : null, byKey, List.of(), namespaces, null, Instant.EPOCH);
    }

    static Inventory inventory(String version, ObjectNode... objects) {
        List<Inventory.Entry> entries = new ArrayList<>();
        for (ObjectNode o : objects) {
            entries.add(new Inventory.Entry(ManifestObjects.ref(o), true, o == CR));
        }
        return new Inventory("widgets", version, "regular", "kcp/widgets-" + version, entries, "3");
    }

    static List<String> names(List<ObjectRef> refs) {
        return refs.stream().map(r -> r.kind()).toList();
    }

    @Test
    void aListedModuleIsInstalledInStagesAfterItsInventoryIsWrittenAhead() {
        LifecyclePlan p = LifecyclePlanner.plan(views(true, null, release("0.4.1", DEPLOY, SA, NS, CRD), List.of(),
                NamespacePolicy.parse("*")));
        assertEquals(Action.INSTALL, p.action());
        assertEquals(List.of("CustomResourceDefinition", "Namespace", "ServiceAccount", "Deployment", "Widget"),
                p.apply().stream().map(o -> o.path("kind").asText()).toList());
        assertEquals(5, p.writeAhead().objects().size(), "every object recorded before it is created");
        assertEquals("rekon", p.apply().get(0).path("metadata").path("labels").path("app.kubernetes.io/managed-by").asText());
        assertEquals("0.4.1", p.inventory().version());
        assertEquals(ModuleState.Ready, p.kymaStatus().state());
    }

    @Test
    void aModuleInLineWithItsReleaseWritesNothing() {
        Release r = release("0.4.1", NS, DEPLOY);
        LifecyclePlan p = LifecyclePlanner.plan(views(true, inventory("0.4.1", NS, DEPLOY, CR), r,
                List.of(NS, DEPLOY, CR), NamespacePolicy.parse("*")));
        assertEquals(Action.NONE, p.action());
        assertEquals(List.of(), p.apply());
        assertNull(p.writeAhead());
        assertNull(p.inventory());
    }

    @Test
    void anUpgradeAppliesTheNewManifestThenPrunesWhatItDropped() {
        LifecyclePlan p = LifecyclePlanner.plan(views(true, inventory("0.4.1", NS, CM, DEPLOY, CR),
                release("0.4.3", NS, DEPLOY), List.of(NS, CM, DEPLOY, CR), NamespacePolicy.parse("*")));
        assertEquals(Action.UPGRADE, p.action());
        assertEquals(List.of("ConfigMap"), names(p.deleted()));
        assertEquals("0.4.3", p.inventory().version());
    }

    @Test
    void theUpgradePolicyRefusesDowngradesAndTwoMajorSteps() {
        LifecyclePlan down = LifecyclePlanner.plan(views(true, inventory("0.4.3", NS), release("0.4.1", NS),
                List.of(NS), NamespacePolicy.parse("*")));
        assertEquals("DowngradeRefused", down.reply().reason());
        LifecyclePlan major = LifecyclePlanner.plan(views(true, inventory("0.4.3", NS), release("2.0.0", NS),
                List.of(NS), NamespacePolicy.parse("*")));
        assertEquals("MajorStepTooLarge", major.reply().reason());
        assertFalse(major.writes() && !major.apply().isEmpty(), "nothing applied");
        assertEquals(ModuleState.Error, major.kymaStatus().state());
    }

    @Test
    void whileTheTargetIsRefusedTheInstalledReleaseIsKeptAsItDeclares() {
        LifecycleViews v = views(true, inventory("0.4.3", NS, CM, DEPLOY, CR), release("0.4.1", NS, CM, DEPLOY),
                List.of(NS, DEPLOY, CR), NamespacePolicy.parse("*"));
        LifecyclePlan p = LifecyclePlanner.plan(new LifecycleViews(v.key(), v.kyma(), v.declared(), v.inventory(),
                v.resolution(), v.live(), v.blocking(), v.namespaces(), v.window(), v.now(),
                new Resolution.Found(release("0.4.3", NS, CM, DEPLOY))));
        assertEquals("DowngradeRefused", p.reply().reason(), "the refusal is reported");
        assertEquals(List.of("ConfigMap"), p.apply().stream().map(o -> o.path("kind").asText()).toList(),
                "the installed release's object deleted by hand comes back");
        assertEquals(List.of(), p.deleted());
        assertNull(p.writeAhead());
        assertNull(p.inventory(), "the inventory stays at the installed release");
        assertEquals(ModuleState.Error, p.kymaStatus().state());
        assertTrue(p.reply().message().contains("0.4.3"), p.reply().message());
    }

    @Test
    void objectsOutsideTheAllowedNamespacesRefuseTheWholeRelease() {
        LifecyclePlan p = LifecyclePlanner.plan(views(true, null, release("0.4.1", DEPLOY), List.of(),
                NamespacePolicy.parse("team-a")));
        assertEquals(NamespacePolicy.REASON, p.reply().reason());
        assertEquals(List.of(), p.apply());
        assertNull(p.writeAhead());
    }

    @Test
    void aFieldChangedByHandIsTakenBack() {
        ObjectNode changed = DEPLOY.deepCopy();
        changed.putObject("spec").put("paused", true);
        ObjectNode desired = DEPLOY.deepCopy();
        desired.putObject("spec").put("paused", false);
        LifecyclePlan p = LifecyclePlanner.plan(views(true, inventory("0.4.1", DEPLOY, CR), release("0.4.1", desired),
                List.of(changed, CR), NamespacePolicy.parse("*")));
        assertEquals(Action.REPAIR, p.action());
        assertEquals(List.of("Deployment"), names(p.drifted()));
        assertEquals("ModuleDriftRepaired", p.reply().reason());
    }

    @Test
    void anUninstallDeletesTheDefaultCrFirstAndCrdsLastAndForgetsTheInventory() {
        LifecyclePlan p = LifecyclePlanner.plan(views(false, inventory("0.4.1", NS, CRD, SA, DEPLOY, CR), null,
                List.of(NS, CRD, SA, DEPLOY, CR), NamespacePolicy.parse("*")));
        assertEquals(Action.UNINSTALL, p.action());
        assertEquals(List.of("Widget", "Deployment", "ServiceAccount", "Namespace", "CustomResourceDefinition"),
                names(p.deleted()));
        assertTrue(p.forget());
    }

    @Test
    void otherResourcesOfItsCrdsHoldTheUninstallAfterTheDefaultCr() {
        LifecycleViews v = views(false, inventory("0.4.1", NS, CRD, DEPLOY, CR), null, List.of(NS, CRD, DEPLOY, CR),
                NamespacePolicy.parse("*"));
        ObjectRef users = new ObjectRef("e2e/v1", "Widget", "team-a", "users-own");
        LifecyclePlan p = LifecyclePlanner.plan(new LifecycleViews(v.key(), v.kyma(), null, v.inventory(), null,
                v.live(), List.of(users), v.namespaces(), null, Instant.EPOCH));
        assertEquals(Action.DELETING, p.action());
        assertEquals(List.of("Widget"), names(p.deleted()), "only the default CR goes");
        assertFalse(p.forget());
        assertTrue(p.reply().message().contains("Widget team-a/users-own"), p.reply().message());
        assertEquals(ModuleState.Deleting, p.kymaStatus().state());
    }

    @Test
    void anObjectOfAnotherModuleIsAConflictButAnExistingNamespaceIsShared() {
        LifecycleViews v = views(true, null, release("0.4.1", NS, CM), List.of(), NamespacePolicy.parse("*"));
        Map<String, LiveObject> live = new HashMap<>();
        live.put(Identity.key(ManifestObjects.ref(NS)), new LiveObject(ManifestObjects.ref(NS), null, NS));
        LifecyclePlan shared = LifecyclePlanner.plan(withLive(v, live));
        assertEquals(Action.INSTALL, shared.action());
        assertEquals(List.of("ConfigMap", "Widget"), shared.apply().stream().map(o -> o.path("kind").asText()).toList(),
                "the Namespace that existed is not applied");
        assertFalse(shared.writeAhead().entry(ManifestObjects.ref(NS)).orElseThrow().created(), "nor ever deleted");

        live.put(Identity.key(ManifestObjects.ref(CM)), new LiveObject(ManifestObjects.ref(CM), "other", CM));
        LifecyclePlan conflict = LifecyclePlanner.plan(withLive(v, live));
        assertEquals("Conflict", conflict.reply().reason());
        assertTrue(conflict.reply().message().contains("ConfigMap widgets/settings"), conflict.reply().message());
        assertNull(conflict.writeAhead());
        assertEquals(List.of(), conflict.apply());
    }

    static LifecycleViews withLive(LifecycleViews v, Map<String, LiveObject> live) {
        return new LifecycleViews(v.key(), v.kyma(), v.declared(), v.inventory(), v.resolution(), live, v.blocking(),
                v.namespaces(), v.window(), v.now());
    }

    @Test
    void aModuleNeverInstalledAndNotListedIsNothingToDo() {
        LifecyclePlan p = LifecyclePlanner.plan(views(false, null, null, List.of(), NamespacePolicy.parse("*")));
        assertEquals(Action.NONE, p.action());
        assertFalse(p.writes());
    }
}
