package dev.rekon.declared.e2e;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import dev.rekon.declared.source.GitSource;
import dev.rekon.declared.source.JGitSource;
import dev.rekon.testing.ApiCallSeries;
import dev.rekon.testing.Await;
import dev.rekon.testing.Events;
import dev.rekon.testing.LocalGitServer;
import dev.rekon.testing.RekonTestResource;
import dev.rekon.testing.SharedFiles;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;

/**
 * What the status page says of a DeclaredState is what its planner planned last, in report mode (a report-mode
 * resync) or carried out: the revision applied and the one a push brought, how many objects it would apply, what a prune would delete, the orphans with when
 * they go, and the refusal that holds a broken tip back; in JSON and in a real browser.
 */
@QuarkusTest
@QuarkusTestResource(value = RekonTestResource.class, restrictToAnnotatedClass = false)
class DeclaredStatusPageTest extends DeclaredFixtures {

    @Inject
    GitSource source;

    @Test
    void thePageShowsThePlanNotASecondDecision() throws Exception {
        String first = work.write("a.yaml", configMap("a", "1")).write("b.yaml", configMap("b", "1")).commitAndPush("first");
        declaredState("  orphanedResources: {action: Delete, gracePeriod: 1h}\n");
        event().body("outcome", equalTo("applied"));
        admin.configMaps().inNamespace(ns).resource(new ConfigMapBuilder().withNewMetadata().withName("stray")
                .endMetadata().build()).create();
        resync();

        String second = work.delete("b.yaml").write("c.yaml", configMap("c", "1")).commitAndPush("second");
        // A report reads no git: it plans from the tip the last pass listed, and says since when.
        reportResync().body("reason", equalTo("InSync"));
        assertEquals("main@sha1:" + first, row().get("revision"));
        assertTrue(String.valueOf(row().get("message")).contains("tip not checked since"), String.valueOf(row()));
        // Once an input has listed the new tip (here a DeclaredState following the same branch, whose folder the
        // tip lacks: refused, so it writes nothing to ours), the report plans from it.
        String elsewhere = ns + "-b";
        namespace(elsewhere);
        admin.secrets().inNamespace(elsewhere).resource(new SecretBuilder().withNewMetadata().withName("git-creds")
                .endMetadata().addToStringData("username", LocalGitServer.USER)
                .addToStringData("password", LocalGitServer.PASSWORD).build()).create();
        admin.resource(Serialization.unmarshal("""
                apiVersion: rekon.dev/v1alpha1
                kind: DeclaredState
                metadata: {name: other, namespace: NS}
                spec:
                  git: {url: "URL", branch: main, path: nowhere, secretRef: {name: git-creds}}
                  namespaces: [NS]
                """.replace("NS", elsewhere).replace("URL", git.url(repo)), GenericKubernetesResource.class)).create();
        listedByAnother(elsewhere);
        reportResync().body("reason", equalTo("WouldChange")).body("areas[0].objects[0].reason", equalTo("RevisionApplied"));
        Map<String, Object> row = row();
        assertEquals("main@sha1:" + first, row.get("applied"));
        assertEquals("main@sha1:" + second, row.get("revision"), "the tip the next reconcile applies");
        assertEquals(1, row.get("pendingApply"));
        assertEquals(List.of(Map.of("apiVersion", "v1", "kind", "ConfigMap", "namespace", ns, "name", "b")),
                row.get("pendingPrunes"));
        List<Map<String, Object>> orphans = (List<Map<String, Object>>) row.get("orphans");
        assertEquals("stray", orphans.get(0).get("name"));
        assertTrue(orphans.get(0).containsKey("deleteAfter"));

        reconcile().body("outcome", equalTo("applied")).body("pruned", equalTo("ConfigMap " + ns + "/b"));
        assertEquals(0, row().get("pendingApply"), "what the page said would happen is what happened");
        assertEquals(List.of(), row().get("pendingPrunes"));

        work.write("broken.yaml", "kind: [\n").commitAndPush("broken");
        listedByAnother(elsewhere);
        reportResync();
        Map<String, Object> refused = row();
        assertEquals("False", refused.get("ready"));
        assertEquals("ParseError", refused.get("reason"));
        assertEquals(true, refused.get("problem"));
        assertTrue(String.valueOf(refused.get("refusal")).contains("broken.yaml"), String.valueOf(refused));

        Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/chromium")), "Debian's chromium is not installed;"
                + " hack/control-plane.sh (run by hack/test.sh) installs it");
        String url = "http://127.0.0.1:" + RekonTestResource.port() + "/?area=declared&namespace=" + ns;
        String dom = dev.rekon.status.StatusBrowserPages.dom(url);
        String tr = dev.rekon.status.StatusBrowserPages.row(dom, "DeclaredState " + ns + "/apps");
        assertTrue(tr.contains("problem") && tr.contains("ParseError") && tr.contains("orphan ConfigMap " + ns + "/stray"),
                tr);
        Path png = SharedFiles.projectDir().resolve("target/declared-status-page.png");
        dev.rekon.status.StatusBrowserPages.screenshot(url, png);
        assertTrue(Files.size(png) > 5_000, "a screenshot in " + png);
    }

    /**
     * A hand change of the DeclaredState with no pass since (its folder moved) is on the page as a resync would plan
     * it: the page plans now from what the watch holds, from the tip the last pass listed (its documents read by
     * commit from the cache) and the objects the last pass read, listing no branch.
     */
    @Test
    void aHandChangeIsOnThePageAsAResyncWouldPlanItBeforeAnyPass() {
        work.write("one/a.yaml", configMap("a", "1")).write("two/b.yaml", configMap("b", "1")).commitAndPush("two folders");
        declaredState(gitSpec(", path: one"), "  namespaces: [" + ns + "]\n");
        event().body("outcome", equalTo("applied"));
        assertEquals(0, row().get("pendingApply"));
        long listed = ((JGitSource) source).listings();

        setSpec("git", Map.of("url", git.url(repo), "branch", "main", "path", "two",
                "secretRef", Map.of("name", "git-creds")));
        Map<String, Object>[] seen = new Map[1];
        Await.until("the page plans the moved folder", Duration.ofSeconds(30), () -> {
            seen[0] = row();
            return Integer.valueOf(1).equals(seen[0].get("pendingApply"));
        });
        assertEquals(List.of(Map.of("apiVersion", "v1", "kind", "ConfigMap", "namespace", ns, "name", "a")),
                seen[0].get("pendingPrunes"), String.valueOf(seen[0]));
        assertEquals(listed, ((JGitSource) source).listings(), "the page lists no branch");
        assertEquals(List.of(), ApiCallSeries.madeBy(() -> {
            row();
            row();
        }, series -> series.matches(".*(configmaps|secrets|declaredstates|discovery).*")),
                "the page reads neither the objects, the Secret, the DeclaredState nor discovery (calls seen in each"
                        + " of 3 windows the application was quiet before; other tests' objects make calls of their own)");
        reportResync().body("reason", equalTo("WouldChange"))
                .body("areas[0].objects[0].reason", equalTo("RevisionApplied"));
        assertEquals(seen[0].get("pendingPrunes"), row().get("pendingPrunes"), "the page is what the resync plans");
    }

    @Test
    void aPushThroughTheGitWebhookIsARecentDecisionNamingWhatItPruned() {
        work.write("a.yaml", configMap("a", "1")).write("b.yaml", configMap("b", "1")).commitAndPush("first");
        declaredState(null);
        event().body("outcome", equalTo("applied"));

        String second = work.delete("b.yaml").commitAndPush("second");
        githubPush("main", false).statusCode(200).body("reply.outcome", equalTo("applied"))
                .body("reply.pruned", equalTo("ConfigMap " + ns + "/b"));

        JsonPath page = given().queryParam("area", "decisions").queryParam("namespace", ns).get("/status").then()
                .statusCode(200).extract().jsonPath();
        Map<String, Object> pushed = page.getMap("decisions.recent[0]");
        assertEquals("git.push", pushed.get("type"), String.valueOf(page.getList("decisions.recent")));
        assertEquals("applied", pushed.get("outcome"));
        assertEquals("RevisionApplied", pushed.get("reason"));
        assertTrue(String.valueOf(pushed.get("message")).contains(second.substring(0, 7)), String.valueOf(pushed));
        assertTrue(((List<?>) pushed.get("objects")).contains(Map.of("apiVersion", "v1", "kind", "ConfigMap",
                "namespace", ns, "name", "b")), "the prune is listed: " + pushed);

        String html = given().queryParam("area", "decisions").queryParam("namespace", ns).get("/").then()
                .statusCode(200).extract().asString();
        assertTrue(html.contains("<code>git.push</code>") && html.contains("ConfigMap " + ns + "/b"), html);
    }

    /** The DeclaredState {@code other} of that namespace, following the same branch, lists its tip. */
    void listedByAnother(String namespace) {
        Events.binary("dev.rekon.declared.reconcile", Map.of(), "{\"namespace\":\"" + namespace
                + "\",\"name\":\"other\"}").statusCode(200).body("outcome", equalTo("rejected"));
    }

    /** A resync in report mode: every DeclaredState planned again, nothing written; the page shows those plans. */
    io.restassured.response.ValidatableResponse reportResync() {
        return dev.rekon.testing.Events.binary("dev.rekon.resync", Map.of(),
                "{\"scope\":\"declared\",\"namespace\":\"" + ns + "\",\"report\":true}").statusCode(200);
    }

    Map<String, Object> row() {
        JsonPath page = given().queryParam("area", "declared").queryParam("namespace", ns).get("/status").then()
                .statusCode(200).extract().jsonPath();
        List<Map<String, Object>> rows = page.getList("declared.rows");
        assertEquals(1, rows.size(), String.valueOf(rows));
        return rows.get(0);
    }
}
