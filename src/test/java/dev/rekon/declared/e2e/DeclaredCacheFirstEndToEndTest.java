package dev.rekon.declared.e2e;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.rekon.declared.source.GitSource;
import dev.rekon.declared.source.JGitSource;
import dev.rekon.testing.Events;
import dev.rekon.testing.RekonTestResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * What declared state costs git and the apiserver, on the real ones: the DeclaredStates come from their watch,
 * a resync pass lists a branch once however many DeclaredStates follow it (and reads their Secret once), and a
 * report lists none. Counted by the application's own git source and API call timer.
 */
@QuarkusTest
@QuarkusTestResource(value = RekonTestResource.class, restrictToAnnotatedClass = false)
class DeclaredCacheFirstEndToEndTest extends DeclaredFixtures {

    static final int STATES = 10;

    @Inject
    GitSource source;

    long listings() {
        return ((JGitSource) source).listings();
    }

    /** Ten DeclaredStates following main of one repository, each its own folder. */
    void tenFollowingOneBranch() {
        for (int i = 0; i < STATES; i++) {
            work.write("d" + i + "/c.yaml", configMap("c" + i, "1"));
        }
        work.commitAndPush("ten folders");
        tenStates();
    }

    /** The same, each folder holding {@code objects} ConfigMaps. */
    void tenFollowingOneBranch(int objects) {
        for (int i = 0; i < STATES; i++) {
            for (int j = 0; j < objects; j++) {
                work.write("d" + i + "/c" + j + ".yaml", configMap("c" + i + "-" + j, "1"));
            }
        }
        work.commitAndPush("ten folders of " + objects);
        tenStates();
    }

    private void tenStates() {
        for (int i = 0; i < STATES; i++) {
            String yaml = """
                    apiVersion: rekon.dev/v1alpha1
                    kind: DeclaredState
                    metadata: {name: NAME, namespace: NS}
                    spec:
                      git: {url: "URL", branch: main, path: PATH, secretRef: {name: git-creds}}
                      namespaces: [NS]
                    """.replace("NAME", "s" + i).replace("NS", ns).replace("URL", git.url(repo)).replace("PATH", "d" + i);
            admin.resource(Serialization.unmarshal(yaml, GenericKubernetesResource.class)).create();
        }
    }

    @Test
    void aPassListsTheBranchOnceAndReadsTheDeclaredStatesFromTheirWatch() {
        tenFollowingOneBranch();
        resync().body("areas[0].changed", equalTo(STATES));
        dev.rekon.testing.Await.until("the watch to hold every status written", java.time.Duration.ofSeconds(10),
                () -> resyncReport().extract().jsonPath().getInt("areas[0].unchanged") == STATES);

        long before = listings();
        double states = calls("GET", "rekon.dev/declaredstates");
        double secrets = calls("GET", "secrets");
        double configMaps = calls("GET", "configmaps");
        double patches = calls("PATCH", "rekon.dev/declaredstates/status") + calls("PATCH", "rekon.dev/declaredstates");
        resync().body("areas[0].unchanged", equalTo(STATES));
        assertEquals(0, calls("PATCH", "rekon.dev/declaredstates/status") + calls("PATCH", "rekon.dev/declaredstates")
                - patches, "a converged pass writes nothing");
        assertEquals(1, listings() - before, "one ls-remote for ten DeclaredStates following one branch");
        // Reads and lists share the timer's key: what is left is the orphan scan's one list of the kind for the
        // whole pass. Before: a read, a scan's list and a list of the namespace's DeclaredStates for each
        // DeclaredState, and a list of all for the pass (31).
        assertEquals(1, calls("GET", "rekon.dev/declaredstates") - states,
                "the DeclaredStates come from their watch; the orphan scan lists the kind once per pass");
        assertEquals(2, calls("GET", "secrets") - secrets,
                "their one Secret read once per pass (before: once per DeclaredState), and one scan list of Secrets");
        assertEquals(1 + STATES, calls("GET", "configmaps") - configMaps, "each namespaced kind listed once per pass"
                + " for all ten DeclaredStates (before: once each), beside each one's list of its own by its label");
    }

    @Test
    void aPassThatAppliesReadsEachDeclaredStatesObjectsOnceAndTheServedKindsOnce() {
        tenFollowingOneBranch();
        double configMaps = calls("GET", "configmaps");
        // A group only the served kinds read (the CRD checks read Rekon's and kpack's groups on their own).
        double discovery = calls("GET", "apps/discovery");
        resync().body("areas[0].changed", equalTo(STATES));
        // Before: the report-mode plan's read and the write's read again, for each DeclaredState (41).
        assertEquals(1 + 2 * STATES, calls("GET", "configmaps") - configMaps, "each DeclaredState's own list by its"
                + " label and a read of its one missing object, once for plan and write; the scan's one list");
        double sweeps = calls("GET", "apps/discovery") - discovery;
        assertTrue(sweeps <= 1, "the served kinds read at most once per pass, not once per worker: " + sweeps);
    }

    @Test
    void aPassThatInstallsListsEachDeclaredStatesObjectsOnce() {
        // Five objects each, none recorded yet: more than are read one by one, so the kind is listed.
        tenFollowingOneBranch(5);
        double configMaps = calls("GET", "configmaps");
        resync().body("areas[0].changed", equalTo(STATES));
        assertEquals(5 * STATES, admin.configMaps().inNamespace(ns).withLabel("rekon.dev/declared-state").list()
                .getItems().size());
        // Before: each DeclaredState's list by its label, which finds nothing on an install, then the kind's (21).
        assertEquals(1 + STATES, calls("GET", "configmaps") - configMaps, "one list of the kind in the namespace for"
                + " each DeclaredState whose objects are not recorded yet, and the scan's one list");
    }

    @Test
    void aReportListsNoTipAndAnEventListsOne() {
        tenFollowingOneBranch();
        resync().body("areas[0].changed", equalTo(STATES));
        work.write("d0/c.yaml", configMap("c0", "2")).commitAndPush("a change the report does not see yet");

        long before = listings();
        resyncReport().body("areas[0].changed", equalTo(0));
        assertEquals(0, listings() - before, "a report plans from the tip the last pass listed");

        Events.binary("dev.rekon.declared.reconcile", Map.of(), "{\"namespace\":\"" + ns + "\",\"name\":\"s0\"}")
                .statusCode(200).body("outcome", equalTo("applied"));
        assertEquals(1, listings() - before, "an event lists the tip once");
        assertEquals("2", cm("c0").getData().get("value"));
        String page = given().get("/status?area=declared").then().statusCode(200).extract().asString();
        assertTrue(page.contains("s1"), page);
    }

    io.restassured.response.ValidatableResponse resyncReport() {
        return Events.binary("dev.rekon.resync", Map.of(), "{\"scope\":\"declared\",\"namespace\":\"" + ns
                + "\",\"report\":true}").statusCode(200);
    }

    /** API calls the application made so far with this method on this resource, by its own timer. */
    static double calls(String method, String resource) {
        String metrics = given().get("/q/metrics").then().statusCode(200).extract().asString();
        Matcher m = Pattern.compile("(?m)^rekon_api_calls_seconds_count\\{([^}]*)} ([0-9.E+-]+)$").matcher(metrics);
        double sum = 0;
        while (m.find()) {
            if (m.group(1).contains("method=\"" + method + "\"") && m.group(1).contains("resource=\"" + resource + "\"")) {
                sum += Double.parseDouble(m.group(2));
            }
        }
        return sum;
    }
}
