package dev.rekon.knative;

import static io.restassured.RestAssured.given;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.rekon.testing.Await;
import dev.rekon.testing.LocalCluster;
import dev.rekon.testing.LocalGitServer;
import dev.rekon.testing.RekonTestResource;
import dev.rekon.testing.knative.KnativeLoop;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentStatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Declared state through Knative's own ApiServerSource adapter, from the shipped rekon-declared (Reference mode
 * here) and rekon-declared-health sources and the Triggers: a DeclaredState created is applied from git, its
 * Deployment's finished rollout turns it Ready, and the Deployment deleted by hand is put back; a StatefulSet,
 * DaemonSet and Job pushed later send their events too. The test writes the
 * Deployment's status as its controller would (no controller-manager runs).
 */
@QuarkusTest
@QuarkusTestResource(value = RekonTestResource.class, restrictToAnnotatedClass = false)
class DeclaredThroughKnativeTest {

    private static final String NS = "kn-declared";
    /** The other kinds rekon-declared-health watches, so that each sends a real event. */
    private static final String OTHERS = """
            apiVersion: apps/v1
            kind: StatefulSet
            metadata: {name: db}
            spec:
              serviceName: db
              selector: {matchLabels: {app: db}}
              template:
                metadata: {labels: {app: db}}
                spec: {containers: [{name: db, image: registry.example/db:1}]}
            ---
            apiVersion: apps/v1
            kind: DaemonSet
            metadata: {name: agent}
            spec:
              selector: {matchLabels: {app: agent}}
              template:
                metadata: {labels: {app: agent}}
                spec: {containers: [{name: agent, image: registry.example/agent:1}]}
            ---
            apiVersion: batch/v1
            kind: Job
            metadata: {name: migrate}
            spec:
              template:
                spec:
                  restartPolicy: Never
                  containers: [{name: migrate, image: registry.example/migrate:1}]
            """;
    private final KubernetesClient admin = LocalCluster.get().adminClient();
    private KnativeLoop loop;

    @AfterEach
    void stop() {
        if (loop != null) {
            loop.close();
        }
    }

    @Test
    void createdAppliedReadyAndPutBack() {
        LocalGitServer git = LocalGitServer.get();
        git.createRepo("kn-declared");
        git.clone("kn-declared").write("web.yaml", """
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: web}
                spec:
                  replicas: 1
                  selector: {matchLabels: {app: web}}
                  template:
                    metadata: {labels: {app: web}}
                    spec: {containers: [{name: web, image: registry.example/web:1}]}
                """).commitAndPush("web");
        admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NS)
                .withLabels(Map.of("rekon.dev/watched", "true")).endMetadata().build()).createOr(n -> n.update());
        admin.secrets().inNamespace(NS).resource(new SecretBuilder().withNewMetadata().withName("git-creds").endMetadata()
                .addToStringData("username", LocalGitServer.USER).addToStringData("password", LocalGitServer.PASSWORD)
                .build()).createOr(s -> s.update());

        loop = KnativeLoop.start(LocalCluster.get(), RekonTestResource.port(), "declared");
        loop.start(loop.source("rekon-declared").inMode("Reference"));
        loop.start(loop.source("rekon-declared-health"));

        admin.resource(Serialization.unmarshal("""
                apiVersion: rekon.dev/v1alpha1
                kind: DeclaredState
                metadata: {name: apps, namespace: NS}
                spec:
                  git: {url: "URL", branch: main, secretRef: {name: git-creds}}
                  namespaces: [NS]
                """.replace("NS", NS).replace("URL", git.url("kn-declared")), GenericKubernetesResource.class)).create();
        Await.until("the DeclaredState applied", Duration.ofSeconds(30), () -> deployment() != null);

        rolledOut();
        Await.until("Ready once the rollout finished", Duration.ofSeconds(30), () -> "True".equals(condition("Ready")));

        admin.apps().deployments().inNamespace(NS).withName("web").delete();
        Await.until("the Deployment deleted by hand put back", Duration.ofSeconds(30), () -> {
            Deployment d = deployment();
            return d != null && d.getMetadata().getDeletionTimestamp() == null
                    && loop.deliveries("Deployment", "web").stream()
                            .anyMatch(e -> e.path("type").asText().endsWith(".delete"));
        });
        loop.awaitDelivered("DeclaredState", "apps");

        // The other kinds the health source watches, applied by a resync of the area after a push.
        git.clone("kn-declared").write("others.yaml", OTHERS).commitAndPush("others");
        given().header("ce-specversion", "1.0").header("ce-id", "kn-resync").header("ce-source", "test")
                .header("ce-type", "dev.rekon.resync").contentType("application/json")
                .body("{\"scope\":\"declared\",\"namespace\":\"" + NS + "\"}").post("/").then().statusCode(200);
        for (String[] o : new String[][] { { "StatefulSet", "db" }, { "DaemonSet", "agent" }, { "Job", "migrate" } }) {
            loop.awaitDelivered(o[0], o[1]);
        }
        loop.assertAllDeliveredOnce();
    }

    private Deployment deployment() {
        return admin.apps().deployments().inNamespace(NS).withName("web").get();
    }

    private void rolledOut() {
        Deployment d = deployment();
        d.setStatus(new DeploymentStatusBuilder().withObservedGeneration(d.getMetadata().getGeneration()).withReplicas(1)
                .withUpdatedReplicas(1).withReadyReplicas(1).withAvailableReplicas(1).build());
        admin.apps().deployments().inNamespace(NS).resource(d).updateStatus();
    }

    @SuppressWarnings("unchecked")
    private String condition(String type) {
        GenericKubernetesResource s = admin.genericKubernetesResources("rekon.dev/v1alpha1", "DeclaredState")
                .inNamespace(NS).withName("apps").get();
        Map<String, Object> status = s == null ? null : (Map<String, Object>) s.getAdditionalProperties().get("status");
        if (status == null) {
            return null;
        }
        for (Map<String, Object> c : (List<Map<String, Object>>) status.getOrDefault("conditions", List.of())) {
            if (type.equals(c.get("type"))) {
                return (String) c.get("status");
            }
        }
        return null;
    }
}
