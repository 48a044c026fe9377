package dev.rekon.resync;

import static dev.rekon.testing.Events.apiServerExtensions;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.rekon.bench.Bench;
import dev.rekon.bench.Writes;
import dev.rekon.status.Loaded;
import dev.rekon.testing.Await;
import dev.rekon.testing.Events;
import dev.rekon.testing.Kpack;
import dev.rekon.testing.LocalCluster;
import dev.rekon.testing.RekonTestResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.ValidatableResponse;

/**
 * The rollouts part of a resync pass on the real apiserver: a lost event converges, a missing Deployment is
 * recreated, a manual change is reported and not fought, a suspended ImageDeploy is held, renamed and orphaned
 * Deployments are pruned, a foreign same-named Deployment is a conflict, and a converged namespace costs no write.
 */
@QuarkusTest
@QuarkusTestResource(value = RekonTestResource.class, restrictToAnnotatedClass = false)
class RolloutResyncEndToEndTest {

    static final String V1 = "registry.local/shop/app@sha256:" + "a".repeat(64);
    static final String V2 = "registry.local/shop/app@sha256:" + "b".repeat(64);
    static final String V3 = "registry.local/shop/app@sha256:" + "c".repeat(64);
    static final String HOTFIX = "registry.local/shop/app:hotfix";

    static KubernetesClient k8s;

    @BeforeAll
    static void cluster() {
        k8s = LocalCluster.get().adminClient();
    }

    static void imageDeploy(String ns, String name, String deploymentName) {
        Bench.imageDeploy(k8s, ns, name, "app", deploymentName);
    }

    /** A namespace with ImageDeploy shop whose Deployment runs build 1 of kpack Image app, created by its event. */
    static String started(String ns) {
        Kpack.namespace(k8s, ns);
        imageDeploy(ns, "shop", "shop");
        imageEvent(ns, Kpack.built(k8s, ns, "app", V1, 1), "applied", "DeploymentCreated");
        return ns;
    }

    /**
     * Until the watches show what the test just wrote (a pass reads only from them): a report-mode pass, which
     * writes nothing, answers {@code value} at {@code path}.
     */
    static void settled(String ns, String path, Object value) {
        String[] last = new String[1];
        try {
            Await.until("a report-mode pass to answer " + path + " = " + value + " in " + ns, () -> {
                var answer = Events.binary(ResyncFunctions.TYPE, Map.of(), "{\"scope\":\"rollouts\",\"namespace\":\""
                        + ns + "\",\"report\":true}").statusCode(200).extract();
                last[0] = answer.asString();
                return value.equals(answer.path(path));
            });
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "; the last answer: " + last[0], e);
        }
    }

    /** Until the status page, built from the same watches, shows the ImageDeploy's spec.suspend as {@code on}. */
    static void settledSuspend(String ns, String name, boolean on) {
        Await.until("the status page to show " + ns + "/" + name + " with spec.suspend " + on, () -> Loaded
                .get("/status?namespace=" + ns, null).then().statusCode(200).extract().jsonPath()
                .getList("rollouts", Map.class).stream().anyMatch(r -> ns.equals(r.get("namespace"))
                        && name.equals(r.get("name")) && Boolean.valueOf(on).equals(r.get("suspended"))));
    }

    static ValidatableResponse resync(String ns) {
        return Events.binary(ResyncFunctions.TYPE, Map.of(), "{\"scope\":\"rollouts\",\"namespace\":\"" + ns + "\"}")
                .statusCode(200).header("ce-type", ResyncFunctions.REPLY_TYPE);
    }

    static ValidatableResponse report(String ns) {
        return Events.binary(ResyncFunctions.TYPE, Map.of(), "{\"scope\":\"rollouts\",\"namespace\":\"" + ns
                + "\",\"report\":true}").statusCode(200).header("ce-type", ResyncFunctions.REPLY_TYPE);
    }

    static String image(String ns, String deployment) {
        Deployment d = k8s.apps().deployments().inNamespace(ns).withName(deployment).get();
        return d == null ? null : d.getSpec().getTemplate().getSpec().getContainers().get(0).getImage();
    }

    static String status(String ns, String name) {
        return Kpack.json(k8s.genericKubernetesResources(Kpack.IMAGE_DEPLOYS).inNamespace(ns).withName(name).get()
                .getAdditionalProperties().get("status"));
    }

    /** The status of the ImageDeploy's condition of that type, or null. */
    @SuppressWarnings("unchecked")
    static String condition(String ns, String name, String type) {
        Map<String, Object> status = (Map<String, Object>) k8s.genericKubernetesResources(Kpack.IMAGE_DEPLOYS)
                .inNamespace(ns).withName(name).get().getAdditionalProperties().get("status");
        Object conditions = status == null ? null : status.get("conditions");
        if (conditions instanceof java.util.List<?> list) {
            for (Object c : list) {
                Map<String, Object> m = (Map<String, Object>) c;
                if (type.equals(m.get("type"))) {
                    return String.valueOf(m.get("status"));
                }
            }
        }
        return null;
    }

    static void awaitCondition(String ns, String name, String type, String status) {
        Await.until(type + " to be " + status + " on " + ns + "/" + name, () -> status.equals(condition(ns, name, type)));
    }

    static void awaitStatus(String ns, String name, String fragment) {
        Await.until("the status of " + ns + "/" + name + " to contain " + fragment,
                () -> status(ns, name).contains(fragment));
    }

    static void imageEvent(String ns, GenericKubernetesResource image, String outcome, String reason) {
        Events.binary("dev.knative.apiserver.resource.update", apiServerExtensions("kpack.io/v1alpha2", "Image", ns, "app"),
                Kpack.json(image)).statusCode(200).body("outcome", equalTo(outcome)).body("reason", equalTo(reason));
    }

    @Test
    void aLostEventAndADeletedDeploymentConvergeAndAConvergedNamespaceCostsNoWrite() {
        String ns = started("resync-lost");
        Kpack.built(k8s, ns, "app", V2, 2); // kpack reports build 2; its event is lost
        settled(ns, "areas[0].changed", 1);

        resync(ns).body("outcome", equalTo("applied")).body("areas[0].area", equalTo("rollouts"))
                .body("areas[0].changed", equalTo(1)).body("areas[0].objects[0].reason", equalTo("ImageUpdated"));
        assertEquals(V2, image(ns, "shop"));
        awaitStatus(ns, "shop", "\"buildCounter\":2");

        k8s.apps().deployments().inNamespace(ns).withName("shop").delete();
        Await.until("the Deployment to be gone", () -> k8s.apps().deployments().inNamespace(ns).withName("shop").get() == null);
        Await.until("a pass to recreate the Deployment", () -> {
            resync(ns);
            return V2.equals(image(ns, "shop"));
        });

        Writes before = Writes.settled(k8s, ns);
        resync(ns).body("outcome", equalTo("unchanged")).body("reason", equalTo("InSync"))
                .body("areas[0].checked", equalTo(1)).body("areas[0].unchanged", equalTo(1));
        resync(ns).body("outcome", equalTo("unchanged"));
        assertEquals(0, Writes.settled(k8s, ns).objectWritesSince(before), "a converged namespace: zero writes");
    }

    /**
     * What a pass writes per ImageDeploy it rolls out, counted by the application's own metrics once everything
     * settled: one Deployment PATCH, one status write as a merge patch of the fields that changed (no PUT of the
     * whole object) and the two Events, one on each object.
     */
    @Test
    void aPassWritesPerRolledOutImageDeployOnePatchOneStatusPatchAndTwoEvents() {
        String ns = "resync-calls";
        Kpack.namespace(k8s, ns);
        Kpack.built(k8s, ns, "app", V1, 1);
        for (String name : java.util.List.of("a", "b", "c")) {
            imageDeploy(ns, name, name);
        }
        settled(ns, "areas[0].changed", 3);
        resync(ns).body("areas[0].changed", equalTo(3));
        for (String name : java.util.List.of("a", "b", "c")) {
            awaitStatus(ns, name, "\"buildCounter\":1");
        }
        Kpack.built(k8s, ns, "app", V2, 2); // kpack reports build 2; its events are lost
        settled(ns, "areas[0].changed", 3);
        Writes before = Writes.settled(k8s, ns);
        Map<String, Double> calls = quietCalls();

        resync(ns).body("outcome", equalTo("applied")).body("areas[0].changed", equalTo(3));
        for (String name : java.util.List.of("a", "b", "c")) {
            assertEquals(V2, image(ns, name));
            awaitStatus(ns, name, "\"buildCounter\":2");
        }
        Writes after = Writes.settled(k8s, ns);
        Map<String, Double> grown = dev.rekon.testing.ApiCallSeries.grown(calls, quietCalls());
        assertEquals(6, after.events() - before.events(), "two Events per rollout, one on each object");
        assertEquals(3.0, sum(grown, "PATCH", "apps/deployments"), "one Deployment PATCH each: " + grown);
        assertEquals(3.0, sum(grown, "PATCH", "rekon.dev/imagedeploys/status"), "one status patch each: " + grown);
        assertEquals(0.0, sum(grown, "PUT", "rekon.dev/imagedeploys/status"), "no PUT of the whole status: " + grown);
        assertEquals(6.0, sum(grown, "POST", "events"), "two Events each: " + grown);
        assertEquals(0.0, sum(grown, "GET", "rekon.dev/imagedeploys") + sum(grown, "GET", "apps/deployments"),
                "no object read again: " + grown);
    }

    /** The application's API calls once they stopped growing for a second (what earlier tests queued is done). */
    static Map<String, Double> quietCalls() {
        Map<String, Double> last = dev.rekon.testing.ApiCallSeries.now();
        for (int i = 0; i < 30; i++) {
            try {
                Thread.sleep(1000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return last;
            }
            Map<String, Double> now = dev.rekon.testing.ApiCallSeries.now();
            if (now.equals(last)) {
                return now;
            }
            last = now;
        }
        return last;
    }

    /** The calls of one method on one resource (every status) among the series that grew. */
    static double sum(Map<String, Double> grown, String method, String resource) {
        return grown.entrySet().stream().filter(e -> e.getKey().contains("method=\"" + method + "\"")
                && e.getKey().contains("resource=\"" + resource + "\"")).mapToDouble(Map.Entry::getValue).sum();
    }

    @Test
    void aManualChangeIsReportedNotFoughtUntilANewerBuild() {
        String ns = started("resync-manual");
        awaitCondition(ns, "shop", "InSync", "True");
        // kubectl set image deployment/shop web=...:hotfix
        k8s.apps().deployments().inNamespace(ns).withName("shop").edit(d -> new DeploymentBuilder(d).editSpec()
                .editTemplate().editSpec().editFirstContainer().withImage(HOTFIX).endContainer().endSpec().endTemplate()
                .endSpec().build());
        settled(ns, "areas[0].drifted", 1);

        resync(ns).body("outcome", equalTo("unchanged")).body("areas[0].drifted", equalTo(1))
                .body("areas[0].objects[0].result", equalTo("drifted"))
                .body("areas[0].objects[0].reason", equalTo("ManualChange"));
        imageEvent(ns, Kpack.built(k8s, ns, "app", V1, 1), "unchanged", "ManualChange");
        assertEquals(HOTFIX, image(ns, "shop"), "not fought");
        awaitStatus(ns, "shop", "\"reason\":\"ManualChange\"");
        assertTrue(status(ns, "shop").contains("container web runs " + HOTFIX + ", not " + V1 + " (build 1 of kpack Image app)"));
        Await.until("a Warning Event ManualChange", () -> k8s.v1().events().inNamespace(ns).list().getItems().stream()
                .anyMatch(e -> "Warning".equals(e.getType()) && "ManualChange".equals(e.getReason())));

        Writes before = Writes.settled(k8s, ns);
        resync(ns).body("areas[0].drifted", equalTo(1));
        assertEquals(0, Writes.settled(k8s, ns).objectWritesSince(before), "the same manual change: zero writes");

        imageEvent(ns, Kpack.built(k8s, ns, "app", V2, 2), "applied", "ImageUpdated");
        assertEquals(V2, image(ns, "shop"));
        awaitCondition(ns, "shop", "InSync", "True");
    }

    @Test
    void aSuspendedImageDeployIsHeldAndLiftingItAppliesTheNewestBuild() {
        String ns = started("resync-suspend");
        suspend(ns, true);
        settledSuspend(ns, "shop", true);
        imageEvent(ns, Kpack.built(k8s, ns, "app", V2, 2), "unchanged", "Suspended");
        resync(ns).body("outcome", equalTo("unchanged"));
        assertEquals(V1, image(ns, "shop"));
        awaitCondition(ns, "shop", "Progressing", "False");
        assertTrue(status(ns, "shop").contains("\"waiting\":[{\"buildCounter\":2,\"image\":\"" + V2 + "\""),
                status(ns, "shop"));

        suspend(ns, false);
        settled(ns, "reason", "WouldChange");
        resync(ns).body("outcome", equalTo("applied"));
        assertEquals(V2, image(ns, "shop"));
        Await.until("the waiting build to leave the status", () -> !status(ns, "shop").contains("waiting"));
    }

    /** As {@code kubectl patch --type merge} does it: no resourceVersion, so Rekon's own status writes cannot race it. */
    static void suspend(String ns, boolean on) {
        mergePatch(ns, "shop", "{\"spec\":{\"suspend\":" + on + "}}");
    }

    static void mergePatch(String ns, String imageDeploy, String patch) {
        k8s.genericKubernetesResources(Kpack.IMAGE_DEPLOYS).inNamespace(ns).withName(imageDeploy)
                .patch(io.fabric8.kubernetes.client.dsl.base.PatchContext.of(
                        io.fabric8.kubernetes.client.dsl.base.PatchType.JSON_MERGE), patch);
    }

    @Test
    void renamedAndOrphanedDeploymentsArePrunedAndAForeignOneIsAConflict() {
        String ns = "resync-prune";
        Kpack.namespace(k8s, ns);
        Kpack.built(k8s, ns, "app", V3, 3);
        imageDeploy(ns, "renamed", "old-name");
        imageDeploy(ns, "orphan", "orphan");
        k8s.apps().deployments().inNamespace(ns).resource(new DeploymentBuilder().withNewMetadata().withName("foreign")
                .endMetadata().withNewSpec().withNewSelector().addToMatchLabels("app", "foreign").endSelector()
                .withNewTemplate().withNewMetadata().addToLabels("app", "foreign").endMetadata().withNewSpec()
                .addNewContainer().withName("web").withImage("nginx:1.25").endContainer().endSpec().endTemplate()
                .endSpec().build()).create();
        imageDeploy(ns, "foreign", "foreign");
        // The three ImageDeploys seen; the watch of managed Deployments does not hold foreign's (it is not Rekon's),
        // so the plan that would create it reads the name, which the Deployment watch shows taken: the page, a
        // report and the write all call it a conflict.
        settled(ns, "areas[0].checked", 3);
        settled(ns, "areas[0].changed", 2);
        report(ns).body("areas[0].changed", equalTo(2))
                .body("areas[0].objects.find { it.result == 'conflict' }.object.name", equalTo("foreign"))
                .body("areas[0].objects.find { it.object.name == 'foreign' }.reason", equalTo("DeploymentConflict"));
        Map<String, Object> row = Loaded.get("/status?namespace=" + ns, null).then().statusCode(200).extract()
                .jsonPath().getList("rollouts", Map.class).stream().filter(r -> "foreign".equals(r.get("name")))
                .findFirst().map(r -> (Map<String, Object>) r).orElseThrow();
        assertEquals("Failing/DeploymentConflict", row.get("state") + "/" + row.get("reason"), row.toString());
        resync(ns).body("areas[0].changed", equalTo(2))
                .body("areas[0].objects.find { it.result == 'conflict' }.object.name", equalTo("foreign"));
        assertEquals(V3, image(ns, "old-name"));
        assertEquals(V3, image(ns, "orphan"));

        mergePatch(ns, "renamed", "{\"spec\":{\"deployment\":{\"metadata\":{\"name\":\"new-name\"}}}}");
        k8s.genericKubernetesResources(Kpack.IMAGE_DEPLOYS).inNamespace(ns).withName("orphan").delete();
        Await.until("the ImageDeploy to be gone", () -> k8s.genericKubernetesResources(Kpack.IMAGE_DEPLOYS)
                .inNamespace(ns).withName("orphan").get() == null);

        Await.until("a pass to prune both", () -> {
            resync(ns);
            return k8s.apps().deployments().inNamespace(ns).withName("old-name").get() == null
                    && k8s.apps().deployments().inNamespace(ns).withName("orphan").get() == null;
        });
        assertEquals(V3, image(ns, "new-name"));
        assertEquals("nginx:1.25", image(ns, "foreign"), "a Deployment that is not Rekon's is never touched");
        resync(ns).body("areas[0].objects.result", hasItem("conflict"))
                .body("areas[0].objects.find { it.result == 'conflict' }.object.name", equalTo("foreign"));
        Await.until("Events recording the pruning", () -> k8s.v1().events().inNamespace(ns).list().getItems().stream()
                .filter(e -> "DeploymentPruned".equals(e.getReason())).count() >= 2);
        assertNotNull(k8s.apps().deployments().inNamespace(ns).withName("foreign").get());
        Map<String, String> labels = k8s.apps().deployments().inNamespace(ns).withName("foreign").get().getMetadata()
                .getLabels();
        assertNull(labels == null ? null : labels.get("app.kubernetes.io/managed-by"));
    }

    @Test
    void badInputIsA400SayingWhatToFix() {
        Events.binary(ResyncFunctions.TYPE, Map.of(), "{\"scope\":\"everything\"}").statusCode(400)
                .body("error", equalTo("InvalidEvent"))
                .body("message", equalTo("\"scope\" must be one of all, buildpacks, declared, imagepromotions, kymas,"
                        + " modules, promotions, publish, rollouts, not 'everything'"));
        Events.binary(ResyncFunctions.TYPE, Map.of(), "{\"scope\":\"rollouts\",\"namespace\":\"Not_A_Name\"}")
                .statusCode(400).body("error", equalTo("InvalidEvent"));
        Events.binary(ResyncFunctions.PING_TYPE, Map.of(), "{}").statusCode(400)
                .body("message", startsWith("dev.knative.sources.ping needs the PingSource data {\"resync\": \"all\"}"));
        Events.binary(ResyncFunctions.PING_TYPE, Map.of(), "{\"resync\":\"modules\"}").statusCode(200)
                .header("ce-type", ResyncFunctions.REPLY_TYPE);
    }
}
