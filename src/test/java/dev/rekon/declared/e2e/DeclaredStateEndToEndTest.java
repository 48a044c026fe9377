package dev.rekon.declared.e2e;

import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import dev.rekon.testing.Await;
import dev.rekon.testing.RekonTestResource;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Declared state from git on the real apiserver and a real git server, as a platform team drives it: push a
 * branch and create a DeclaredState, and its objects are applied; push a change and the webhook applies it,
 * pruning what left git; a hand edit or deletion is put back by a resync; a broken revision is refused whole and
 * the last good one stays; what git never declared is reported, then deleted after its grace period; deleting
 * the DeclaredState deletes what it applied.
 */
@QuarkusTest
@QuarkusTestResource(value = RekonTestResource.class, restrictToAnnotatedClass = false)
class DeclaredStateEndToEndTest extends DeclaredFixtures {

    @Test
    void aPushIsAppliedAChangeIsPrunedByTheWebhookAndTheSameEventTwiceChangesNothing() {
        String first = work.write("apps/settings.yaml", configMap("settings", "1") + "---\n" + configMap("extra", "1"))
                .write("README.md", "not a manifest").commitAndPush("first");
        declaredState(null);

        event().body("outcome", equalTo("applied")).body("reason", equalTo("RevisionApplied"))
                .body("revision", equalTo("main@sha1:" + first));
        assertEquals("1", cm("settings").getData().get("value"));
        assertEquals("rekon", cm("settings").getMetadata().getLabels().get("app.kubernetes.io/managed-by"));
        assertEquals(ns + ".apps", cm("settings").getMetadata().getLabels().get("rekon.dev/declared-state"));
        assertEquals("main@sha1:" + first, status().path("revision").asText());
        assertEquals("True", condition("Ready").path("status").asText());
        assertEquals(2, status().at("/inventory/entries").size());
        assertEquals(List.of("rekon.dev/declared-state"), state().getMetadata().getFinalizers());

        String rv = cm("settings").getMetadata().getResourceVersion();
        String stateRv = state().getMetadata().getResourceVersion();
        event().body("outcome", equalTo("unchanged")).body("reason", equalTo("InSync"));
        assertEquals(rv, cm("settings").getMetadata().getResourceVersion(), "the same event twice changes nothing");
        assertEquals(stateRv, state().getMetadata().getResourceVersion(), "nor the DeclaredState's status");

        String second = work.write("apps/settings.yaml", configMap("settings", "2")).commitAndPush("second");
        githubPush("main", false).statusCode(200).body("reply.outcome", equalTo("applied"))
                .body("reply.revision", equalTo("main@sha1:" + second)).body("reply.pruned", containsString("extra"));
        assertEquals("2", cm("settings").getData().get("value"));
        assertNull(cm("extra"), "what left git is pruned");
        assertEquals(1, status().at("/inventory/entries").size());

        githubPush("main", false).statusCode(200).body("reply.outcome", equalTo("unchanged"));
        githubPush("main", true).statusCode(200).body("reply.reason", equalTo("BranchDeleted"));
        assertNotNull(cm("settings"), "a deleted branch deletes nothing");
        githubPush("other", false).statusCode(200).body("reply.reason", equalTo("NoDeclaredState"));
    }

    @Test
    void aResyncPutsBackWhatAPersonChangedOrDeletedAndLeavesWhatGitDoesNotSet() {
        work.write("settings.yaml", configMap("settings", "1")).write("other.yaml", configMap("other", "1"))
                .commitAndPush("first");
        declaredState(null);
        event().body("outcome", equalTo("applied"));

        admin.configMaps().inNamespace(ns).withName("settings").edit(c -> new ConfigMapBuilder(c).addToData("value", "hand")
                .addToData("added", "by hand").build());
        admin.configMaps().inNamespace(ns).withName("other").delete();
        Await.until("the deletion to land", Duration.ofSeconds(10), () -> cm("other") == null);

        resync().body("outcome", equalTo("applied"));
        assertEquals("1", cm("settings").getData().get("value"), "a field the manifest sets is taken back");
        assertEquals("by hand", cm("settings").getData().get("added"), "a field it leaves out stays");
        assertNotNull(cm("other"), "a deleted object is created again");
        resync().body("outcome", equalTo("unchanged"));
    }

    @Test
    void aBrokenRevisionIsRefusedWholeNamingTheFileAndTheLastGoodOneStays() {
        String good = work.write("a.yaml", configMap("a", "1")).write("b.yaml", configMap("b", "1")).commitAndPush("good");
        declaredState(null);
        event().body("outcome", equalTo("applied"));

        work.write("c.yaml", configMap("c", "1")).delete("b.yaml").write("broken.yaml", "apiVersion: v1\nkind: [oops\n")
                .commitAndPush("broken");
        reconcile().statusCode(200).body("outcome", equalTo("rejected")).body("reason", equalTo("ParseError"))
                .body("message", containsString("broken.yaml:"));
        assertNull(cm("c"), "nothing of the broken revision is applied");
        assertNotNull(cm("b"), "nothing is pruned");
        assertEquals("main@sha1:" + good, status().path("revision").asText());
        assertEquals("False", condition("Ready").path("status").asText());
        assertTrue(condition("Ready").path("message").asText().contains("broken.yaml"));

        work.delete("broken.yaml").write("c.yaml", configMap("c", "1") + "---\n" + configMap("c", "2"))
                .commitAndPush("duplicate");
        reconcile().body("reason", equalTo("DuplicateObject")).body("message", containsString("c.yaml:"));

        work.write("c.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, namespace: kube-system}\n")
                .commitAndPush("elsewhere");
        reconcile().body("reason", equalTo("NamespaceNotAllowed")).body("message", containsString("kube-system"));

        work.write("c.yaml", configMap("c", "1")).commitAndPush("fixed");
        reconcile().body("outcome", equalTo("applied"));
        assertNotNull(cm("c"));
        assertNull(cm("b"), "b left git with the fixed revision: pruned");
        assertEquals("True", condition("Ready").path("status").asText());
    }

    @Test
    void anObjectItDidNotApplyIsAConflictUntilTheManifestAdoptsIt() {
        admin.configMaps().inNamespace(ns).resource(new ConfigMapBuilder().withNewMetadata().withName("shared")
                .endMetadata().addToData("value", "theirs").build()).create();
        work.write("shared.yaml", configMap("shared", "ours")).commitAndPush("first");
        declaredState(null);
        event().body("outcome", equalTo("rejected")).body("reason", equalTo("Conflict"))
                .body("message", containsString("ConfigMap " + ns + "/shared"));
        assertEquals("theirs", cm("shared").getData().get("value"));

        work.write("shared.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: shared\n  annotations:\n"
                + "    rekon.dev/adopt: \"true\"\ndata:\n  value: ours\n").commitAndPush("adopt");
        reconcile().body("outcome", equalTo("applied"));
        assertEquals("ours", cm("shared").getData().get("value"));
    }

    @Test
    void whatGitNeverDeclaredIsReportedThenDeletedAfterItsGracePeriod() {
        work.write("settings.yaml", configMap("settings", "1")).commitAndPush("first");
        declaredState("  orphanedResources: {action: Delete, gracePeriod: 2s}\n");
        event().body("outcome", equalTo("applied"));
        admin.configMaps().inNamespace(ns).resource(new ConfigMapBuilder().withNewMetadata().withName("stray")
                .endMetadata().build()).create();

        resync();
        JsonNode orphans = status().path("orphans");
        List<String> names = new ArrayList<>();
        orphans.forEach(o -> names.add(o.path("kind").asText() + "/" + o.path("name").asText()));
        assertEquals(List.of("ConfigMap/stray"), names, "the credentials' Secret and the DeclaredState are no orphans");
        assertTrue(orphans.get(0).has("deleteAfter"));
        assertNotNull(cm("stray"), "not before its grace period");

        Await.until("the orphan to be deleted after its grace period", Duration.ofSeconds(20), () -> {
            resync();
            return cm("stray") == null;
        });
        assertNotNull(cm("settings"));
        assertNotNull(admin.secrets().inNamespace(ns).withName("git-creds").get());
    }

    @Test
    void gitFailuresAnswerWhatToFixAndAnOutageIsRetried() {
        work.write("settings.yaml", configMap("settings", "1")).commitAndPush("first");
        declaredState(null);
        admin.secrets().inNamespace(ns).withName("git-creds").edit(s -> {
            s.setData(null);
            s.setStringData(java.util.Map.of("username", "rekon-git", "password", "wrong"));
            return s;
        });
        event().body("outcome", equalTo("rejected")).body("reason", equalTo("AuthenticationFailed"));
        assertNull(cm("settings"));

        admin.secrets().inNamespace(ns).withName("git-creds").edit(s -> {
            s.setData(null);
            s.setStringData(java.util.Map.of("username", "rekon-git", "password", dev.rekon.testing.LocalGitServer.PASSWORD));
            return s;
        });
        git.failWith(503);
        try {
            reconcile().statusCode(503);
        } finally {
            git.failWith(0);
        }
        assertNull(cm("settings"), "an outage applies and deletes nothing");
        reconcile().statusCode(200).body("outcome", equalTo("applied"));

        admin.genericKubernetesResources(API_VERSION, "DeclaredState").inNamespace(ns).withName("apps")
                .edit(o -> {
                    ((java.util.Map<String, Object>) ((java.util.Map<String, Object>) o.getAdditionalProperties()
                            .get("spec")).get("git")).put("branch", "nope");
                    return o;
                });
        reconcile().body("reason", equalTo("BranchNotFound"));
        assertNotNull(cm("settings"), "an unreadable branch prunes nothing");
    }

    @Test
    void deletingTheDeclaredStateDeletesWhatItAppliedThenLetsItGo() {
        work.write("settings.yaml", configMap("settings", "1")).commitAndPush("first");
        declaredState(null);
        event().body("outcome", equalTo("applied"));
        admin.genericKubernetesResources(API_VERSION, "DeclaredState").inNamespace(ns).withName("apps").delete();
        assertNotNull(state(), "held by the finalizer");
        event().body("outcome", equalTo("applied")).body("reason", equalTo("Finalized"));
        assertNull(cm("settings"));
        Await.until("the DeclaredState to go", Duration.ofSeconds(10), () -> state() == null);
        assertNotNull(admin.secrets().inNamespace(ns).withName("git-creds").get(), "what it did not apply stays");
    }
}
