package dev.rekon.declared;

import static dev.rekon.declared.DeclaredScene.cm;
import static dev.rekon.declared.DeclaredScene.configMap;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import org.junit.jupiter.api.Test;

import dev.rekon.cluster.Conditions;
import dev.rekon.core.NamespacePolicy;
import dev.rekon.core.ObjectRef;
import dev.rekon.core.Outcome;
import dev.rekon.declared.apply.DeclaredStatusBody;
import dev.rekon.declared.plan.DeclaredPlan;
import dev.rekon.declared.plan.SourceState;
import dev.rekon.manifests.LiveObject;
import dev.rekon.manifests.ManifestObjects;
import dev.rekon.manifests.plan.WriteResult;

/** The DeclaredState planner as a table of views in, plans out: no cluster, no git. */
class DeclaredPlannerTest {

    @Test
    void aNewRevisionIsRecordedAheadAppliedInStagesAndReportedReady() {
        DeclaredScene s = new DeclaredScene().declares("apps/a.yaml", configMap(null, "settings", "1"),
                DeclaredScene.yaml("apiVersion: v1\nkind: Namespace\nmetadata: {name: team-a}\n"));
        s.state.remove("status");
        DeclaredPlan p = s.plan();
        assertEquals(DeclaredPlan.Action.APPLY, p.action());
        assertEquals(List.of("Namespace", "ConfigMap"), kinds(p.apply()), "Namespaces before the rest");
        assertEquals("team-a", p.apply().get(1).at("/metadata/namespace").asText(), "defaulted to spec.namespaces[0]");
        assertEquals("team-a.apps", p.apply().get(1).at("/metadata/labels/rekon.dev~1declared-state").asText());
        assertEquals("rekon", p.apply().get(1).at("/metadata/labels/app.kubernetes.io~1managed-by").asText());
        assertEquals(2, DeclaredStatusBody.of(p.writeAhead()).at("/inventory/entries").size(), "both recorded before either is created");
        assertEquals("team-a_settings__ConfigMap", written(p).at("/inventory/entries/0/id").asText());
        assertEquals("main@sha1:c0ffee", written(p).path("revision").asText());
        assertEquals("True", condition(written(p), "Ready").path("status").asText());
        assertEquals(2, written(p).path("observedGeneration").asLong());
        assertEquals(Outcome.APPLIED, p.reply().outcome());
        assertEquals("main@sha1:c0ffee", p.reply().details().get("revision"));
    }

    @Test
    void aConvergedStateWritesNothing() {
        ObjectNode settings = configMap(null, "settings", "1");
        DeclaredScene s = new DeclaredScene().declares("a.yaml", settings).applied(settings).recorded("c0ffee", cm("settings"));
        DeclaredPlan first = s.plan();
        s.state.set("status", written(first));
        DeclaredPlan again = s.plan();
        assertFalse(again.writes(), "the same views twice: nothing to write");
        assertEquals(Outcome.UNCHANGED, again.reply().outcome());
        assertEquals("InSync", again.reply().reason());
    }

    @Test
    void aConvergedStatusReadBackFromTheServerWritesNothing() throws Exception {
        ObjectNode settings = configMap(null, "settings", "1");
        DeclaredScene s = new DeclaredScene().declares("a.yaml", settings).applied(settings).recorded("c0ffee", cm("settings"));
        DeclaredPlan first = s.plan();
        // As the apiserver answers it: small numbers (observedGeneration) parse as ints, not the longs planned.
        s.state.set("status", new com.fasterxml.jackson.databind.ObjectMapper().readTree(written(first).toString()));
        DeclaredPlan again = s.plan();
        assertNull(again.status(), "the same status, read back: no status write");
        assertFalse(again.writes());
    }

    @Test
    void aWriteTheServerRefusesIsAStatusThePlanDecidesWithWhatMayExistStillRecorded() {
        DeclaredScene s = new DeclaredScene().declares("a.yaml", configMap(null, "settings", "1"));
        s.state.remove("status");
        DeclaredPlan p = s.plan();
        assertEquals(p.status(), p.record(WriteResult.WRITTEN), "every write made: the status planned");
        JsonNode refused = DeclaredStatusBody.of(p.record(new WriteResult.Refused(cm("settings"),
                "apply ConfigMap team-a/settings: forbidden", DeclaredScene.NOW)));
        assertEquals("False", condition(refused, "Ready").path("status").asText());
        assertEquals("ApiRefused", condition(refused, "Ready").path("reason").asText());
        assertEquals("apply ConfigMap team-a/settings: forbidden", condition(refused, "Ready").path("message").asText());
        assertEquals("False", condition(refused, "Reconciling").path("status").asText());
        assertEquals("team-a_settings__ConfigMap", refused.at("/inventory/entries/0/id").asText(),
                "the inventory as written ahead: what may exist stays recorded");
        assertTrue(refused.path("revision").isMissingNode(), "no revision applied");
    }

    @Test
    void aPlanThatWritesSaysWhatItDidAsTheEventAndAConvergedOneSaysNothing() {
        ObjectNode settings = configMap(null, "settings", "1");
        DeclaredScene s = new DeclaredScene().declares("a.yaml", settings);
        DeclaredPlan applying = s.plan();
        assertEquals(applying.reply(), applying.event());
        s.applied(settings).recorded("c0ffee", cm("settings")).state.set("status", written(applying));
        assertNull(s.plan().event(), "nothing written, nothing to say");
        s.declares("b.yaml", DeclaredScene.yaml("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings}\n"));
        DeclaredPlan refused = s.plan();
        assertEquals(Outcome.REJECTED, refused.event().outcome(), "a refusal that changes the status: a warning");
    }

    @Test
    void whatLeftGitIsPrunedGuardedByWhatWasSeen() {
        ObjectNode keep = configMap(null, "keep", "1");
        ObjectNode gone = configMap(null, "gone", "1");
        DeclaredScene s = new DeclaredScene().declares("a.yaml", keep).applied(keep).applied(gone)
                .recorded("old", cm("keep"), cm("gone"));
        DeclaredPlan p = s.plan();
        assertEquals(List.of(cm("gone")), p.prune().stream().map(LiveObject::ref).toList());
        assertEquals("uid-gone", p.prune().get(0).uid());
        assertEquals("41", p.prune().get(0).resourceVersion());
        assertNull(p.writeAhead(), "nothing new to record");
        assertEquals(1, written(p).at("/inventory/entries").size());
        s.spec("prune", false);
        assertTrue(s.plan().prune().isEmpty(), "prune: false keeps what left git");
    }

    @Test
    void aFieldChangedByHandIsPutBackAndFieldsGitLeavesOutStay() {
        ObjectNode settings = configMap(null, "settings", "1");
        ObjectNode changed = configMap("team-a", "settings", "2");
        ObjectNode extra = configMap("team-a", "settings", "1");
        extra.with("data").put("added-by-hand", "x");
        DeclaredScene drifted = new DeclaredScene().declares("a.yaml", settings).applied(changed)
                .recorded("c0ffee", cm("settings"));
        assertEquals(List.of(cm("settings")), drifted.plan().apply().stream().map(ManifestObjects::ref).toList());
        assertTrue(drifted.plan().reply().message().contains("1 applied (1 drifted)"), drifted.plan().reply().message());
        DeclaredScene changedInGit = new DeclaredScene().declares("a.yaml", settings).applied(changed)
                .recorded("older", cm("settings"));
        assertTrue(changedInGit.plan().reply().message().contains("1 applied (1 changed)"),
                "against a new revision a difference is git's change, not drift");
        DeclaredScene added = new DeclaredScene().declares("a.yaml", settings).applied(extra)
                .recorded("c0ffee", cm("settings"));
        assertTrue(added.plan().apply().isEmpty(), "a field the manifest leaves out is not drift");
    }

    @Test
    void aRefusedRevisionKeepsTheLastGoodOneAndPrunesNothing() {
        ObjectNode settings = configMap(null, "settings", "1");
        DeclaredScene s = new DeclaredScene().declares("a.yaml", settings).applied(settings)
                .recorded("good", cm("settings"));
        s.source = new SourceState.Refused("ParseError", "apps/b.yaml:3: mapping values are not allowed here", "bad");
        DeclaredPlan p = s.plan();
        assertEquals(DeclaredPlan.Action.REFUSED, p.action());
        assertTrue(p.apply().isEmpty() && p.prune().isEmpty());
        assertEquals("main@sha1:good", written(p).path("revision").asText(), "the last good revision stays");
        assertEquals("main@sha1:bad", written(p).path("lastAttemptedRevision").asText());
        JsonNode ready = condition(written(p), "Ready");
        assertEquals("False", ready.path("status").asText());
        assertEquals("ParseError", ready.path("reason").asText());
        assertTrue(ready.path("message").asText().contains("apps/b.yaml:3"));
        assertEquals(Outcome.REJECTED, p.reply().outcome());
    }

    @Test
    void twoDocumentsDeclaringOneObjectAreRefusedNamingBoth() {
        DeclaredPlan p = new DeclaredScene().declares("a.yaml", configMap(null, "x", "1"))
                .declares("b.yaml", configMap("team-a", "x", "2")).plan();
        assertEquals("DuplicateObject", p.reply().reason());
        assertTrue(p.reply().message().contains("a.yaml:1") && p.reply().message().contains("b.yaml:1"),
                p.reply().message());
    }

    @Test
    void objectsOutsideTheAllowedNamespacesRefuseTheWholeRevision() {
        DeclaredPlan outsideSpec = new DeclaredScene().declares("a.yaml", configMap(null, "ok", "1"),
                configMap("team-b", "x", "1")).plan();
        assertEquals(NamespacePolicy.REASON, outsideSpec.reply().reason());
        assertTrue(outsideSpec.apply().isEmpty());
        assertTrue(outsideSpec.reply().message().contains("ConfigMap team-b/x"), outsideSpec.reply().message());

        DeclaredScene rekon = new DeclaredScene().declares("a.yaml", configMap(null, "ok", "1"));
        rekon.policy = NamespacePolicy.parse("team-b");
        assertEquals(NamespacePolicy.REASON, rekon.plan().reply().reason());

        DeclaredScene cluster = new DeclaredScene().declares("a.yaml",
                DeclaredScene.yaml("apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {name: r}\n"));
        cluster.policy = NamespacePolicy.parse("team-a", false);
        assertEquals(NamespacePolicy.REASON, cluster.plan().reply().reason(), "cluster-scoped needs rekon.cluster-scoped");
    }

    @Test
    void aClusterScopedKindThatACrdOfTheRevisionDeclaresNamesNoNamespace() {
        DeclaredScene s = new DeclaredScene().declares("a.yaml", DeclaredScene.yaml("""
                apiVersion: apiextensions.k8s.io/v1
                kind: CustomResourceDefinition
                metadata: {name: clusterissuers.certs.example.com}
                spec: {group: certs.example.com, scope: Cluster, names: {kind: ClusterIssuer, plural: clusterissuers}}
                """), DeclaredScene.yaml("apiVersion: certs.example.com/v1\nkind: ClusterIssuer\nmetadata: {name: ca}\n"));
        DeclaredPlan p = s.plan();
        assertEquals(Outcome.APPLIED, p.reply().outcome(), p.reply().message());
        assertEquals(List.of("CustomResourceDefinition", "ClusterIssuer"), kinds(p.apply()));
        assertFalse(p.apply().get(1).path("metadata").has("namespace"));
    }

    @Test
    void aKindTheServerDoesNotServeRefusesTheRevisionWholeNamingItsFile() {
        ObjectNode keep = configMap(null, "keep", "1");
        DeclaredScene s = new DeclaredScene().declares("a-first.yaml", configMap(null, "first", "1"))
                .declares("thing.yaml", DeclaredScene.yaml("apiVersion: nope.example/v1\nkind: Thing\nmetadata: {name: t1}\n"))
                .applied(keep).recorded("0ld", cm("keep"));
        s.unserved.add("nope.example/v1/Thing");
        DeclaredPlan p = s.plan();
        assertEquals(DeclaredPlan.Action.REFUSED, p.action());
        assertEquals(Outcome.REJECTED, p.reply().outcome());
        assertEquals("KindNotServed", p.reply().reason());
        assertTrue(p.reply().message().contains("thing.yaml:1"), p.reply().message());
        assertTrue(p.reply().message().contains("Thing team-a/t1"), p.reply().message());
        assertTrue(p.reply().message().contains("nope.example/v1"), p.reply().message());
        assertTrue(p.apply().isEmpty() && p.prune().isEmpty() && p.writeAhead() == null, "nothing is written");
        JsonNode ready = condition(written(p), "Ready");
        assertEquals("False", ready.path("status").asText());
        assertEquals("KindNotServed", ready.path("reason").asText());
        assertTrue(ready.path("message").asText().contains("thing.yaml:1"), ready.toString());
        assertEquals("main@sha1:c0ffee", written(p).path("lastAttemptedRevision").asText());
        assertEquals("main@sha1:0ld", written(p).path("revision").asText(), "the last good revision stays");
    }

    @Test
    void aKindWhoseCrdTheRevisionDeclaresIsAppliedAfterIt() {
        DeclaredScene s = new DeclaredScene().declares("a.yaml", DeclaredScene.yaml("""
                apiVersion: apiextensions.k8s.io/v1
                kind: CustomResourceDefinition
                metadata: {name: widgets.example.com}
                spec:
                  group: example.com
                  scope: Namespaced
                  names: {kind: Widget, plural: widgets}
                  versions: [{name: v1, served: true, storage: true}]
                """), DeclaredScene.yaml("apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\n"));
        s.unserved.add("example.com/v1/Widget");
        DeclaredPlan p = s.plan();
        assertEquals(Outcome.APPLIED, p.reply().outcome(), p.reply().message());
        assertEquals(List.of("CustomResourceDefinition", "Widget"), kinds(p.apply()));

        // A version the CRD does not declare is still not served.
        s.documents.set(1, new dev.rekon.declared.source.DeclaredDocument("a.yaml", 12,
                DeclaredScene.yaml("apiVersion: example.com/v2\nkind: Widget\nmetadata: {name: w}\n")));
        s.unserved.add("example.com/v2/Widget");
        assertEquals("KindNotServed", s.plan().reply().reason());
    }

    @Test
    void anotherNamespaceInTheSpecNeedsCrossNamespace() {
        DeclaredScene s = new DeclaredScene().declares("a.yaml", configMap("team-b", "x", "1"))
                .spec("namespaces", List.of("team-a", "team-b"));
        DeclaredPlan refused = s.plan();
        assertEquals(NamespacePolicy.REASON, refused.reply().reason());
        assertTrue(refused.reply().message().contains("rekon.declared.cross-namespace"), refused.reply().message());
        s.cross = true;
        assertEquals(Outcome.APPLIED, s.plan().reply().outcome());
    }

    @Test
    void anObjectSomeoneElseHasIsAConflictUnlessTheManifestAdoptsIt() {
        ObjectNode theirs = configMap("team-a", "settings", "0");
        DeclaredScene s = new DeclaredScene().declares("a.yaml", configMap(null, "settings", "1")).exists(theirs, null);
        DeclaredPlan conflict = s.plan();
        assertEquals("Conflict", conflict.reply().reason());
        assertTrue(conflict.reply().message().contains("ConfigMap team-a/settings"));
        assertEquals("ConfigMap team-a/settings", conflict.reply().details().get("refused"));
        assertTrue(conflict.apply().isEmpty());

        ObjectNode adopting = configMap(null, "settings", "1");
        adopting.with("metadata").with("annotations").put("rekon.dev/adopt", "true");
        DeclaredScene adopt = new DeclaredScene().declares("a.yaml", adopting).exists(theirs, null);
        assertEquals(List.of(cm("settings")), adopt.plan().apply().stream().map(ManifestObjects::ref).toList());
    }

    @Test
    void orphansAreListedSinceFirstSeenAndDeletedOnlyAfterTheirGracePeriod() {
        ObjectNode settings = configMap(null, "settings", "1");
        DeclaredScene s = new DeclaredScene().declares("a.yaml", settings).applied(settings)
                .recorded("c0ffee", cm("settings"));
        List<LiveObject> scanned = new ArrayList<>(s.live.values());
        scanned.add(live(configMap("team-a", "stray", "1")));
        scanned.add(live(configMap("team-a", "kube-root-ca.crt", "1")));
        scanned.add(live(DeclaredScene.yaml("apiVersion: v1\nkind: ServiceAccount\nmetadata: {namespace: team-a, name: default}\n")));
        scanned.add(live(DeclaredScene.yaml("apiVersion: v1\nkind: Secret\ntype: kubernetes.io/service-account-token\n"
                + "metadata: {namespace: team-a, name: tok}\n")));
        scanned.add(live(DeclaredScene.yaml("apiVersion: apps/v1\nkind: ReplicaSet\nmetadata: {namespace: team-a, name: rs,"
                + " ownerReferences: [{kind: Deployment, name: d, uid: x, apiVersion: apps/v1}]}\n")));
        scanned.add(live(DeclaredScene.yaml("apiVersion: v1\nkind: Secret\nmetadata: {namespace: team-a, name: git-creds}\n")));
        s.protectedRefs.add(dev.rekon.manifests.Identity.key(new ObjectRef("v1", "Secret", "team-a", "git-creds")));
        s.scanned = scanned;
        DeclaredPlan p = s.plan();
        assertEquals(List.of(cm("stray")), p.report().orphans().stream().map(DeclaredPlan.Orphan::ref).toList());
        assertEquals(DeclaredScene.NOW, p.report().orphans().get(0).since());
        assertNull(p.report().orphans().get(0).deleteAfter(), "Report: never deleted");
        assertTrue(p.orphanDeletes().isEmpty());

        s.spec("orphanedResources", Map.of("action", "Delete", "gracePeriod", "10m"));
        s.state.set("status", written(p));
        s.now = DeclaredScene.NOW.plusSeconds(300);
        DeclaredPlan early = s.plan();
        assertEquals(DeclaredScene.NOW.plusSeconds(600), early.report().orphans().get(0).deleteAfter());
        assertTrue(early.orphanDeletes().isEmpty(), "within the grace period");
        s.now = DeclaredScene.NOW.plusSeconds(600);
        assertEquals(List.of(cm("stray")), s.plan().orphanDeletes().stream().map(LiveObject::ref).toList());

        s.spec("orphanedResources", Map.of("action", "Delete", "ignore", List.of(Map.of("group", "", "kind", "ConfigMap",
                "name", "str*"))));
        assertTrue(s.plan().report().orphans().isEmpty(), "ignored by a glob");
    }

    /**
     * A status lists a bounded number of orphans, as Kubernetes bounds status lists: the oldest (the next to be
     * deleted), with the count of all; the page's report lists all of them. A pass without a scan keeps the count.
     */
    @Test
    void theStatusListsTheOldestOrphansAndCountsAllWhileTheReportListsAll() {
        ObjectNode settings = configMap(null, "settings", "1");
        DeclaredScene s = new DeclaredScene().declares("a.yaml", settings).applied(settings)
                .recorded("c0ffee", cm("settings"));
        List<LiveObject> scanned = new ArrayList<>(s.live.values());
        int strays = DeclaredPlan.LISTED_ORPHANS + 5;
        for (int i = 0; i < strays; i++) {
            scanned.add(live(configMap("team-a", String.format("stray-%02d", i), "1")));
        }
        s.scanned = scanned;
        DeclaredPlan first = s.plan();
        assertEquals(strays, first.report().orphans().size(), "the report lists every orphan");
        assertEquals(DeclaredPlan.LISTED_ORPHANS, written(first).path("orphans").size());
        assertEquals(strays, written(first).path("orphanCount").asInt());
        assertEquals("stray-00", written(first).at("/orphans/0/name").asText());

        s.state.set("status", written(first));
        scanned.add(live(configMap("team-a", "a-newer-stray", "1")));
        s.now = DeclaredScene.NOW.plusSeconds(60);
        DeclaredPlan later = s.plan();
        assertEquals(strays + 1, written(later).path("orphanCount").asInt());
        assertEquals(DeclaredPlan.LISTED_ORPHANS, written(later).path("orphans").size());
        assertFalse(written(later).path("orphans").toString().contains("a-newer-stray"),
                "the oldest are listed: a newer orphan waits for room");
        s.state.set("status", written(later));
        assertNull(s.plan().status(), "the same scan again writes nothing");

        s.scanned = null;
        assertNull(s.plan().status(), "without a scan the count is kept");
    }

    @Test
    void aDeploymentBeingAppliedKeepsReadyUnknownUntilItRolledOut() {
        ObjectNode d = DeclaredScene.yaml("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec: {replicas: 2}\n");
        DeclaredPlan p = new DeclaredScene().declares("a.yaml", d).plan();
        assertEquals("Unknown", condition(written(p), "Ready").path("status").asText());
        assertEquals("True", condition(written(p), "Reconciling").path("status").asText());
        ObjectNode rolledOut = d.deepCopy();
        rolledOut.with("metadata").put("generation", 1);
        rolledOut.putObject("status").put("observedGeneration", 1).put("replicas", 2).put("updatedReplicas", 2)
                .put("availableReplicas", 2);
        DeclaredScene done = new DeclaredScene().declares("a.yaml", d).applied(rolledOut)
                .recorded("c0ffee", new ObjectRef("apps/v1", "Deployment", "team-a", "web"));
        assertEquals("True", condition(written(done.plan()), "Ready").path("status").asText());
    }

    @Test
    void aStateWaitingForARolloutAsksToBePlannedAgainAndOneRolledOutDoesNot() {
        ObjectNode d = DeclaredScene.yaml("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec: {replicas: 2}\n");
        DeclaredPlan rollingOut = new DeclaredScene().declares("a.yaml", d).plan();
        assertEquals("Unknown", condition(written(rollingOut), "Ready").path("status").asText());
        assertEquals(Optional.of(DeclaredPlan.ROLLOUT_RECHECK), rollingOut.rescheduleAfter(),
                "the plan, not a memory of the replica, decides it is planned again");
        ObjectNode rolledOut = d.deepCopy();
        rolledOut.with("metadata").put("generation", 1);
        rolledOut.putObject("status").put("observedGeneration", 1).put("replicas", 2).put("updatedReplicas", 2)
                .put("availableReplicas", 2);
        DeclaredPlan done = new DeclaredScene().declares("a.yaml", d).applied(rolledOut)
                .recorded("c0ffee", new ObjectRef("apps/v1", "Deployment", "team-a", "web")).plan();
        assertEquals("True", condition(written(done), "Ready").path("status").asText());
        assertEquals(Optional.empty(), done.rescheduleAfter(), "Ready: nothing left to wait for");
    }

    @Test
    void aDeletedDeclaredStateDeletesWhatItAppliedInReverseStagesThenLetsGo() {
        ObjectNode crd = DeclaredScene.yaml("apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\n"
                + "metadata: {name: widgets.example.com}\n");
        ObjectNode settings = configMap(null, "settings", "1");
        DeclaredScene s = new DeclaredScene().applied(settings).exists(crd, DeclaredScene.OWNER)
                .recorded("c0ffee", ManifestObjects.ref(crd), cm("settings"));
        s.state.with("metadata").put("deletionTimestamp", "2026-11-26T09:00:00Z");
        DeclaredPlan p = s.plan();
        assertEquals(List.of("ConfigMap", "CustomResourceDefinition"), p.prune().stream().map(l -> l.ref().kind()).toList());
        assertTrue(p.removeFinalizer());
        s.spec("prune", false);
        assertTrue(s.plan().prune().isEmpty(), "prune: false: what it applied stays");
    }

    @Test
    void aSuspendedStateReadsAndWritesNoObject() {
        DeclaredScene s = new DeclaredScene();
        s.source = new SourceState.Suspended();
        DeclaredPlan p = s.plan();
        assertEquals(DeclaredPlan.Action.SUSPENDED, p.action());
        assertTrue(p.apply().isEmpty() && p.prune().isEmpty());
        assertEquals("Suspended", p.reply().reason());
    }

    private static LiveObject live(ObjectNode o) {
        return new LiveObject(ManifestObjects.ref(o), null, o);
    }

    private static List<String> kinds(List<ObjectNode> objects) {
        return objects.stream().map(o -> o.path("kind").asText()).toList();
    }

    /** The status the plan writes, as the gateway sends it. */
    private static JsonNode written(DeclaredPlan p) {
        return DeclaredStatusBody.of(p.status());
    }

    private static JsonNode condition(JsonNode status, String type) {
        return Conditions.find(status.path("conditions"), type);
    }
}
