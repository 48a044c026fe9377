package dev.rekon.declared.e2e;

import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import dev.rekon.testing.Await;
import dev.rekon.testing.Events;
import dev.rekon.testing.RekonTestResource;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentStatusBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.ValidatableResponse;

/**
 * Health of what a DeclaredState applied, on the real apiserver and git server, with the ApiServerSource events
 * of knative/eventing/sources.yaml (rekon-declared-health) as Knative would deliver them: a Deployment keeps the
 * DeclaredState Reconciling while it rolls out, its finished rollout turns it Ready at once, a change while nothing
 * waits costs no git request, and a Deployment deleted by hand is put back. No controller-manager runs here: the
 * test writes the Deployment's status as its controller would.
 */
@QuarkusTest
@QuarkusTestResource(value = RekonTestResource.class, restrictToAnnotatedClass = false)
class DeclaredHealthEndToEndTest extends DeclaredFixtures {

    private static final String DEPLOYMENT = """
            apiVersion: apps/v1
            kind: Deployment
            metadata: {name: web}
            spec:
              replicas: 1
              selector: {matchLabels: {app: web}}
              template:
                metadata: {labels: {app: web}}
                spec: {containers: [{name: web, image: registry.example/web:1}]}
            """;

    @Test
    void readyFollowsTheRolloutAndADeletedDeploymentComesBack() {
        work.write("web.yaml", DEPLOYMENT).commitAndPush("web");
        declaredState(null);
        event().body("outcome", equalTo("applied"));
        assertEquals("Unknown", condition("Ready").path("status").asText(), "rolling out: " + condition("Ready"));
        assertEquals("True", condition("Reconciling").path("status").asText());

        rolledOut();
        deploymentEvent("update").body("reason", not(equalTo("NotRollingOut")));
        assertEquals("True", condition("Ready").path("status").asText(), "rolled out: " + condition("Ready"));
        assertEquals("False", condition("Reconciling").path("status").asText());

        int requests = git.requests().size();
        deploymentEvent("update").body("outcome", equalTo("unchanged")).body("reason", equalTo("NotRollingOut"));
        assertEquals(requests, git.requests().size(), "nothing waits: no git request");

        admin.apps().deployments().inNamespace(ns).withName("web").delete();
        Await.until("the Deployment is gone", Duration.ofSeconds(10),
                () -> admin.apps().deployments().inNamespace(ns).withName("web").get() == null);
        deploymentEvent("delete").body("outcome", equalTo("applied"));
        assertNotNull(admin.apps().deployments().inNamespace(ns).withName("web").get(), "put back at once");
    }

    @Test
    void whetherItWaitsForARolloutIsItsReadyConditionNotOneReplicasMemory() {
        // Another replica applied and planned it: Ready True in its status, no plan of it on this replica.
        work.write("web.yaml", DEPLOYMENT).commitAndPush("web");
        declaredState("  suspend: true\n");
        admin.apps().deployments().inNamespace(ns).resource(Serialization.unmarshal(DEPLOYMENT.replace(
                "metadata: {name: web}", "metadata: {name: web, labels: {rekon.dev/declared-state: " + ns + ".apps}}"),
                Deployment.class)).create();
        admin.genericKubernetesResources(API_VERSION, "DeclaredState").inNamespace(ns).withName("apps").editStatus(o -> {
            o.getAdditionalProperties().put("status", java.util.Map.of("conditions", java.util.List.of(java.util.Map.of(
                    "type", "Ready", "status", "True", "reason", "ReconciliationSucceeded", "message", "applied",
                    "lastTransitionTime", "2026-11-27T10:00:00Z", "observedGeneration", 1))));
            return o;
        });
        // A push to a branch nobody follows starts the DeclaredStates' watch, planning nothing.
        githubPush("nobody-follows", false).statusCode(200).body("reply.reason", equalTo("NoDeclaredState"));
        sleep(3000);
        int requests = git.requests().size();
        deploymentEvent("update").body("outcome", equalTo("unchanged")).body("reason", equalTo("NotRollingOut"));
        assertEquals(requests, git.requests().size(), "not planned: its Ready condition says it waits for nothing");
        // Its Ready condition turns False (as a plan on another replica decides): a change is planned again.
        admin.genericKubernetesResources(API_VERSION, "DeclaredState").inNamespace(ns).withName("apps").editStatus(o -> {
            o.getAdditionalProperties().put("status", java.util.Map.of("conditions", java.util.List.of(java.util.Map.of(
                    "type", "Ready", "status", "Unknown", "reason", "Progressing", "message", "web rolling out",
                    "lastTransitionTime", "2026-11-27T10:00:00Z", "observedGeneration", 1))));
            return o;
        });
        Await.until("a change to be planned again", Duration.ofSeconds(10),
                () -> "Suspended".equals(deploymentEvent("update").extract().path("reason")));
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** What the Deployment controller writes once the rollout is done. */
    private void rolledOut() {
        Deployment d = admin.apps().deployments().inNamespace(ns).withName("web").get();
        d.setStatus(new DeploymentStatusBuilder().withObservedGeneration(d.getMetadata().getGeneration()).withReplicas(1)
                .withUpdatedReplicas(1).withReadyReplicas(1).withAvailableReplicas(1).build());
        admin.apps().deployments().inNamespace(ns).resource(d).updateStatus();
    }

    /** The event rekon-declared-health sends for the Deployment (mode Resource: the object as it is now). */
    private ValidatableResponse deploymentEvent(String verb) {
        Deployment d = admin.apps().deployments().inNamespace(ns).withName("web").get();
        String body = d == null ? "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"name\":\"web\","
                + "\"namespace\":\"" + ns + "\",\"labels\":{\"rekon.dev/declared-state\":\"" + ns + ".apps\"}}}"
                : Serialization.asJson(d);
        return Events.binary("dev.knative.apiserver.resource." + verb,
                Events.apiServerExtensions("apps/v1", "Deployment", ns, "web"), body).statusCode(200);
    }
}
