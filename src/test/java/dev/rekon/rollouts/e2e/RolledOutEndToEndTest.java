package dev.rekon.rollouts.e2e;

import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.time.Instant;

import jakarta.inject.Inject;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.rekon.rollouts.StatusPasses;
import dev.rekon.testing.Await;
import dev.rekon.testing.Events;
import dev.rekon.testing.Kpack;
import dev.rekon.testing.LocalCluster;
import dev.rekon.testing.RekonTestResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apps.DeploymentStatus;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * An ImageDeploy's {@code RolledOut} follows its Deployment's status on the real apiserver, the test acting as the
 * Deployment controller: no event about the ImageDeploy and no resync, only the Deployment's watch.
 */
@QuarkusTest
@QuarkusTestResource(value = RekonTestResource.class, restrictToAnnotatedClass = false)
class RolledOutEndToEndTest {

    static final String NS = "rolled-out";
    static final String B1 = "registry.local/rolled-out/hello@sha256:" + "1".repeat(64);
    static final String B2 = "registry.local/rolled-out/hello@sha256:" + "2".repeat(64);
    static final ObjectMapper JSON = new ObjectMapper();

    static KubernetesClient k8s;

    @BeforeAll
    static void namespace() {
        k8s = LocalCluster.get().adminClient();
        Kpack.namespace(k8s, NS);
        k8s.genericKubernetesResources(Kpack.IMAGE_DEPLOYS).inNamespace(NS).resource(Serialization.unmarshal("""
                {"apiVersion": "rekon.dev/v1alpha1", "kind": "ImageDeploy",
                 "metadata": {"name": "hello", "namespace": "%s"},
                 "spec": {"deployment": {"spec": {"replicas": 2, "selector": {"matchLabels": {"app": "hello"}},
                     "template": {"metadata": {"labels": {"app": "hello"}},
                       "spec": {"containers": [{"name": "web", "image": "REF=hello"}]}}}}}}
                """.formatted(NS), GenericKubernetesResource.class)).createOr(r -> r.update());
    }

    /** The test as the Deployment controller: this status for the Deployment's current generation. */
    static void deploymentReports(int updated, int available, String progressingReason) {
        k8s.apps().deployments().inNamespace(NS).withName("hello").editStatus(d -> {
            String now = Instant.now().toString();
            d.setStatus(Serialization.unmarshal("""
                    {"observedGeneration": %d, "replicas": 2, "updatedReplicas": %d, "readyReplicas": %3$d, "availableReplicas": %d,
                     "conditions": [{"type": "Progressing", "status": "%s", "reason": "%s",
                        "message": "as the test says", "lastTransitionTime": "%s", "lastUpdateTime": "%s"}]}
                    """.formatted(d.getMetadata().getGeneration(), updated, available,
                    progressingReason.equals("ProgressDeadlineExceeded") ? "False" : "True", progressingReason, now,
                    now), DeploymentStatus.class));
            return d;
        });
    }

    static JsonNode imageDeploy() {
        return JSON.valueToTree(k8s.genericKubernetesResources(Kpack.IMAGE_DEPLOYS).inNamespace(NS).withName("hello")
                .get());
    }

    static JsonNode rolledOut() {
        for (JsonNode c : imageDeploy().path("status").path("conditions")) {
            if ("RolledOut".equals(c.path("type").asText())) {
                return c;
            }
        }
        return null;
    }

    static void awaitRolledOut(String status, String reason) {
        Await.until("ImageDeploy " + NS + "/hello says RolledOut=" + status + "/" + reason, () -> {
            JsonNode c = rolledOut();
            return c != null && status.equals(c.path("status").asText()) && reason.equals(c.path("reason").asText());
        });
    }

    @Inject
    StatusPasses passes;

    /** Lets the watch deliver what the test wrote, then waits for the status passes it asked for. */
    void settle() {
        try {
            Thread.sleep(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        passes.awaitIdle(Duration.ofSeconds(10));
    }

    static void built(String image, long build) {
        GenericKubernetesResource kpack = Kpack.built(k8s, NS, "hello", image, build);
        Events.binary("dev.knative.apiserver.resource.update", Events.apiServerExtensions("kpack.io/v1alpha2", "Image",
                NS, "hello"), Kpack.json(kpack)).statusCode(200).body("outcome", equalTo("applied"));
    }

    @Test
    void rolledOutFollowsTheDeploymentsStatusWithoutAnyOtherEvent() {
        built(B1, 1);
        awaitRolledOut("False", "Progressing");

        deploymentReports(1, 1, "ReplicaSetUpdated");
        deploymentReports(2, 2, "NewReplicaSetAvailable");
        awaitRolledOut("True", "RolloutComplete");
        JsonNode done = rolledOut();
        assertEquals(imageDeploy().path("metadata").path("generation").asLong(),
                done.path("observedGeneration").asLong());
        String version = imageDeploy().path("metadata").path("resourceVersion").asText();
        deploymentReports(2, 2, "NewReplicaSetAvailable");
        settle();
        assertEquals(version, imageDeploy().path("metadata").path("resourceVersion").asText(),
                "the same rollout reported again writes nothing");

        built(B2, 2);
        awaitRolledOut("False", "Progressing");
        assertEquals(B2, imageDeploy().path("status").path("images").get(0).path("image").asText(),
                "the new build and its rollout are reported together");

        deploymentReports(1, 2, "ProgressDeadlineExceeded");
        awaitRolledOut("False", "ProgressDeadlineExceeded");
        assertEquals(B2, imageDeploy().path("status").path("images").get(0).path("image").asText());
    }
}
