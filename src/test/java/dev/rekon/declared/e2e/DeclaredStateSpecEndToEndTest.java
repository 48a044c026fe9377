package dev.rekon.declared.e2e;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.allOf;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import dev.rekon.testing.Await;
import dev.rekon.testing.RekonTestResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.response.ValidatableResponse;

/**
 * The spec of a DeclaredState and how its pushes arrive, on the real apiserver and git server: suspend, a path,
 * prune off, pushes arriving together, the webhook of each host (and one that is not signed or too large), a
 * Namespace that git shares with others, and a CRD declared with its own custom resources.
 */
@QuarkusTest
@QuarkusTestResource(value = RekonTestResource.class, restrictToAnnotatedClass = false)
class DeclaredStateSpecEndToEndTest extends DeclaredFixtures {

    @Test
    void whileSuspendedAPushChangesNothingAndResumingAppliesIt() {
        String first = work.write("settings.yaml", configMap("settings", "1")).commitAndPush("first");
        declaredState(null);
        event().body("outcome", equalTo("applied"));
        String rv = cm("settings").getMetadata().getResourceVersion();

        setSpec("suspend", true);
        String second = work.write("settings.yaml", configMap("settings", "2")).write("more.yaml", configMap("more", "1"))
                .commitAndPush("second");
        githubPush("main", false).statusCode(200).body("reply.outcome", equalTo("unchanged"))
                .body("reply.reason", equalTo("Suspended")).body("reply.message", containsString("spec.suspend"));
        reconcile().statusCode(200).body("outcome", equalTo("unchanged")).body("reason", equalTo("Suspended"));
        assertEquals(rv, cm("settings").getMetadata().getResourceVersion(), "nothing is written while suspended");
        assertNull(cm("more"));
        assertEquals("main@sha1:" + first, status().path("revision").asText());

        setSpec("suspend", false);
        reconcile().statusCode(200).body("outcome", equalTo("applied")).body("revision", equalTo("main@sha1:" + second));
        assertEquals("2", cm("settings").getData().get("value"));
        assertNotNull(cm("more"));
    }

    @Test
    void onlyTheFilesUnderThePathAreApplied() {
        work.write("apps/a.yaml", configMap("a", "1")).write("apps/nested/b.yaml", configMap("b", "1"))
                .write("other/c.yaml", configMap("c", "1")).write("root.yaml", configMap("root", "1"))
                .write("apps-old/d.yaml", configMap("d", "1")).commitAndPush("first");
        declaredState(gitSpec(", path: ./apps/"), "  namespaces: [" + ns + "]\n");
        event().body("outcome", equalTo("applied"));
        assertEquals(List.of("a", "b"), labelled("ConfigMap"), "apps-old, other and the root are not under apps/");
        assertEquals(2, status().at("/inventory/entries").size());

        work.delete("apps/nested").write("other/c.yaml", configMap("c", "2")).commitAndPush("second");
        reconcile().body("outcome", equalTo("applied")).body("pruned", containsString("ConfigMap " + ns + "/b"));
        assertEquals(List.of("a"), labelled("ConfigMap"));
    }

    @Test
    void withPruneOffWhatLeavesGitStays() {
        work.write("a.yaml", configMap("a", "1")).write("b.yaml", configMap("b", "1")).commitAndPush("first");
        declaredState(gitSpec(""), "  namespaces: [" + ns + "]\n  prune: false\n");
        event().body("outcome", equalTo("applied"));
        String rv = cm("b").getMetadata().getResourceVersion();

        work.delete("b.yaml").write("a.yaml", configMap("a", "2")).commitAndPush("second");
        reconcile().statusCode(200).body("outcome", equalTo("applied")).body("message", containsString("0 pruned"));
        assertEquals("2", cm("a").getData().get("value"));
        assertNotNull(cm("b"), "prune: false keeps what left git");
        assertEquals(rv, cm("b").getMetadata().getResourceVersion(), "untouched");

        // And deleting the DeclaredState leaves what it applied.
        admin.genericKubernetesResources(API_VERSION, "DeclaredState").inNamespace(ns).withName("apps").delete();
        event().body("reason", equalTo("Finalized")).body("message", containsString("spec.prune is false"));
        assertNotNull(cm("a"));
        assertNotNull(cm("b"));
    }

    @Test
    void twoPushesArrivingTogetherApplyTheTipOnce() throws Exception {
        String tip = work.write("a.yaml", configMap("a", "1")).write("b.yaml", configMap("b", "1"))
                .commitAndPush("first");
        declaredState(null);
        List<String> seen = Collections.synchronizedList(new ArrayList<>());
        try (Watch w = admin.configMaps().inNamespace(ns).watch(new Watcher<>() {
            @Override
            public void eventReceived(Action action, io.fabric8.kubernetes.api.model.ConfigMap cm) {
                seen.add(action + " " + cm.getMetadata().getName() + " " + cm.getMetadata().getResourceVersion());
            }

            @Override
            public void onClose(WatcherException cause) {
            }
        })) {
            CyclicBarrier together = new CyclicBarrier(2);
            ExecutorService pool = Executors.newFixedThreadPool(2);
            try {
                List<Future<JsonPath>> replies = new ArrayList<>();
                for (int i = 0; i < 2; i++) {
                    replies.add(pool.submit(() -> {
                        together.await(10, TimeUnit.SECONDS);
                        return reconcile().statusCode(200).extract().jsonPath();
                    }));
                }
                List<String> outcomes = new ArrayList<>();
                for (Future<JsonPath> r : replies) {
                    JsonPath reply = r.get(60, TimeUnit.SECONDS);
                    outcomes.add(reply.getString("outcome") + " " + reply.getString("reason"));
                    assertEquals("main@sha1:" + tip, reply.getString("revision"));
                }
                Collections.sort(outcomes);
                assertEquals(List.of("applied RevisionApplied", "unchanged InSync"), outcomes,
                        "one applies the tip, the other finds it applied");
            } finally {
                pool.shutdownNow();
            }
            String a = cm("a").getMetadata().getResourceVersion();
            String b = cm("b").getMetadata().getResourceVersion();
            Await.until("the watch to see both objects", Duration.ofSeconds(10),
                    () -> seen.contains("ADDED a " + a) && seen.contains("ADDED b " + b));
            reconcile().body("outcome", equalTo("unchanged"));
            assertEquals(List.of("ADDED a " + a, "ADDED b " + b), seen.stream().sorted().toList(),
                    "one write each: created once, never modified");
        }
    }

    private String giteaBody() {
        return """
                {"ref":"refs/heads/main","before":"0000000000000000000000000000000000000001","after":"AFTER",
                 "repository":{"full_name":"e2e/REPO","clone_url":"URL","html_url":"HTML"}}
                """.replace("REPO", repo).replace("HTML", git.url(repo).replace(".git", "")).replace("URL", git.url(repo))
                .replace("AFTER", work.head());
    }

    private ValidatableResponse gitea(String body, String signature) {
        return given().header("X-Gitea-Event", "push").header("X-Gitea-Delivery", UUID.randomUUID().toString())
                .header("X-Gitea-Signature", signature).contentType("application/json").body(body)
                .post("/webhooks/git").then();
    }

    @Test
    void giteaAndGitLabPushesTriggerTheReconcileAndAnUnsignedOrHugeOneChangesNothing() {
        work.write("settings.yaml", configMap("settings", "1")).commitAndPush("first");
        declaredState(null);
        String body = giteaBody();
        gitea(body, hmac(body)).statusCode(200).body("reply.outcome", equalTo("applied"))
                .body("reply.revision", equalTo("main@sha1:" + work.head()));
        assertEquals("1", cm("settings").getData().get("value"));

        String second = work.write("settings.yaml", configMap("settings", "2")).commitAndPush("second");
        String rv = cm("settings").getMetadata().getResourceVersion();
        String forged = giteaBody();
        gitea(forged, hmac("not the body")).statusCode(401)
                .body("error", equalTo("Unauthorized")).body("message", containsString("rekon.webhooks.git.hmac-secret"));
        gitea(forged, "").statusCode(401);
        String stateRv = state().getMetadata().getResourceVersion();
        assertEquals(rv, cm("settings").getMetadata().getResourceVersion(), "a wrong signature changes nothing");

        StringBuilder pad = new StringBuilder();
        while (pad.length() < 1_500_000) {
            pad.append("0123456789abcdef");
        }
        String huge = giteaBody().replace("\"ref\":", "\"padding\":\"" + pad + "\",\"ref\":");
        gitea(huge, hmac(huge)).statusCode(413).body("error", equalTo("BodyTooLarge"))
                .body("message", containsString("rekon.webhooks.max-body-bytes"));
        assertEquals(rv, cm("settings").getMetadata().getResourceVersion(), "a body too large changes nothing");
        assertEquals(stateRv, state().getMetadata().getResourceVersion());

        String gitlab = """
                {"object_kind":"push","ref":"refs/heads/main","before":"0000000000000000000000000000000000000001",
                 "after":"AFTER","project":{"path_with_namespace":"e2e/REPO","git_http_url":"URL","web_url":"HTML"}}
                """.replace("REPO", repo).replace("HTML", git.url(repo).replace(".git", "")).replace("URL", git.url(repo))
                .replace("AFTER", second);
        given().header("X-Gitlab-Event", "Push Hook").header("X-Gitlab-Token", "wrong")
                .header("X-Gitlab-Event-UUID", UUID.randomUUID().toString()).contentType("application/json")
                .body(gitlab).post("/webhooks/git").then().statusCode(401)
                .body("message", containsString("X-Gitlab-Token"));
        assertEquals(rv, cm("settings").getMetadata().getResourceVersion());
        given().header("X-Gitlab-Event", "Push Hook").header("X-Gitlab-Token", "git-test-token")
                .header("X-Gitlab-Event-UUID", UUID.randomUUID().toString()).contentType("application/json")
                .body(gitlab).post("/webhooks/git").then().statusCode(200).body("reply.outcome", equalTo("applied"))
                .body("reply.revision", equalTo("main@sha1:" + second));
        assertEquals("2", cm("settings").getData().get("value"));
    }

    @Test
    void aNamespaceDeclaredInGitThatExistsIsSharedAndNeverDeleted() {
        work.write("namespace.yaml", "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: " + ns + "\n  labels:\n"
                + "    team: apps\n").write("settings.yaml", configMap("settings", "1")).commitAndPush("first");
        declaredState(null);
        event().statusCode(200).body("outcome", equalTo("applied")).body("applied", allOf(
                containsString("ConfigMap " + ns + "/settings"), not(containsString("Namespace"))));
        assertNotNull(cm("settings"));
        var namespace = admin.namespaces().withName(ns).get();
        assertNull(namespace.getMetadata().getLabels().get("rekon.dev/declared-state"), "not taken over");
        reconcile().body("outcome", equalTo("unchanged"));

        work.delete("namespace.yaml").commitAndPush("namespace left git");
        reconcile().statusCode(200).body("outcome", equalTo("unchanged"));
        assertNotNull(admin.namespaces().withName(ns).get());
        assertNull(admin.namespaces().withName(ns).get().getMetadata().getDeletionTimestamp(), "never deleted");

        work.write("namespace.yaml", "apiVersion: v1\nkind: Namespace\nmetadata: {name: " + ns + "}\n")
                .commitAndPush("namespace back");
        reconcile().statusCode(200);
        admin.genericKubernetesResources(API_VERSION, "DeclaredState").inNamespace(ns).withName("apps").delete();
        event().body("reason", equalTo("Finalized"));
        assertNull(cm("settings"));
        assertNull(admin.namespaces().withName(ns).get().getMetadata().getDeletionTimestamp(),
                "deleting the DeclaredState leaves a shared Namespace");
    }

    @Test
    void aCrdIsEstablishedBeforeItsResourcesAndOutlivesThemWhenPruned() throws Exception {
        String group = ns + ".e2e.rekon.dev";
        String crdName = "widgets." + group;
        String crd = """
                apiVersion: apiextensions.k8s.io/v1
                kind: CustomResourceDefinition
                metadata: {name: CRD}
                spec:
                  group: GROUP
                  scope: Namespaced
                  names: {kind: Widget, plural: widgets, singular: widget, listKind: WidgetList}
                  versions:
                  - name: v1
                    served: true
                    storage: true
                    schema:
                      openAPIV3Schema:
                        type: object
                        properties:
                          spec: {type: object, properties: {size: {type: integer}}}
                """.replace("CRD", crdName).replace("GROUP", group);
        String widget = "apiVersion: " + group + "/v1\nkind: Widget\nmetadata: {name: w1}\nspec: {size: 3}\n";
        try {
            // The resource sorts before its CRD in git; Rekon stages the CRD first.
            work.write("a-widget.yaml", widget).write("z-crd.yaml", crd).write("settings.yaml", configMap("s", "1"))
                    .commitAndPush("first");
            declaredState(null);
            event().statusCode(200).body("outcome", equalTo("applied"));
            CustomResourceDefinition live = admin.apiextensions().v1().customResourceDefinitions().withName(crdName).get();
            Instant established = Instant.parse(live.getStatus().getConditions().stream()
                    .filter(c -> "Established".equals(c.getType()) && "True".equals(c.getStatus())).findFirst()
                    .orElseThrow().getLastTransitionTime());
            GenericKubernetesResource w = admin.genericKubernetesResources(group + "/v1", "Widget").inNamespace(ns)
                    .withName("w1").get();
            assertNotNull(w, "the resource is applied in the same pass as its CRD");
            assertTrue(!Instant.parse(w.getMetadata().getCreationTimestamp()).isBefore(established),
                    "created once the CRD was Established");
            assertEquals("True", condition("Ready").path("status").asText());

            List<String> order = Collections.synchronizedList(new ArrayList<>());
            try (Watch crds = admin.apiextensions().v1().customResourceDefinitions().withName(crdName)
                    .watch(new Watcher<>() {
                        @Override
                        public void eventReceived(Action action, CustomResourceDefinition c) {
                            if (action == Action.DELETED || c.getMetadata().getDeletionTimestamp() != null) {
                                order.add(c.getMetadata().getResourceVersion() + " crd");
                            }
                        }

                        @Override
                        public void onClose(WatcherException cause) {
                        }
                    });
                    Watch widgets = admin.genericKubernetesResources(group + "/v1", "Widget").inNamespace(ns)
                            .watch(new Watcher<>() {
                                @Override
                                public void eventReceived(Action action, GenericKubernetesResource r) {
                                    if (action == Action.DELETED || r.getMetadata().getDeletionTimestamp() != null) {
                                        order.add(r.getMetadata().getResourceVersion() + " widget");
                                    }
                                }

                                @Override
                                public void onClose(WatcherException cause) {
                                }
                            })) {
                work.delete("a-widget.yaml").delete("z-crd.yaml").commitAndPush("both leave git");
                String pruned = reconcile().statusCode(200).body("outcome", equalTo("applied")).extract()
                        .path("pruned");
                assertTrue(pruned.indexOf("Widget " + ns + "/w1") >= 0 && pruned.indexOf("Widget " + ns + "/w1")
                        < pruned.indexOf("CustomResourceDefinition " + crdName), pruned);
                Await.until("both deletions to be seen", Duration.ofSeconds(20),
                        () -> seen(order, "crd") && seen(order, "widget"));
                // Two watches deliver in no common order; the revision each change was stored at is the order.
                List<String> copy;
                synchronized (order) {
                    copy = List.copyOf(order);
                }
                List<String> stored = copy.stream().sorted(Comparator.comparingLong(
                        (String o) -> Long.parseLong(o.substring(0, o.indexOf(' '))))).map(o -> o.substring(o.indexOf(' ') + 1))
                        .toList();
                assertEquals("widget", stored.get(0), "the resource goes before its CRD: " + stored);
            }
            Await.until("the CRD to go", Duration.ofSeconds(20),
                    () -> admin.apiextensions().v1().customResourceDefinitions().withName(crdName).get() == null);
            assertNotNull(cm("s"));
        } finally {
            admin.apiextensions().v1().customResourceDefinitions().withName(crdName).delete();
        }
    }

    private static boolean seen(List<String> order, String what) {
        synchronized (order) {
            return order.stream().anyMatch(o -> o.endsWith(" " + what));
        }
    }
}
