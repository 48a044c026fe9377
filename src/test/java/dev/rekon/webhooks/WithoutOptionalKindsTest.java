package dev.rekon.webhooks;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;

import java.util.List;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.rekon.testing.Events;
import dev.rekon.testing.Kpack;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.ValidatableResponse;

/**
 * A cluster without kpack's kinds and without Kyma's: rollouts and webhooks work, the missing kinds are "not
 * installed" (in the readiness details, and named in the reply to a manual event for one), and no reply says
 * {@code ApiRefused}.
 */
@QuarkusTest
@TestProfile(WithoutOptionalKindsResource.Profile.class)
class WithoutOptionalKindsTest {

    static final String NS = "bare";
    static final String REPO = "registry.example.com/bare/api";
    static final String DIGEST = "sha256:" + "a".repeat(64);

    @BeforeAll
    static void imageDeploys() {
        KubernetesClient k8s = WithoutOptionalKindsResource.cluster.adminClient();
        Kpack.namespace(k8s, NS);
        create(k8s, "api", "{\"updatePolicy\": {\"level\": \"minor\"}, ", REPO + ":1.0.0");
        create(k8s, "web", "", "REF=web");
    }

    static void create(KubernetesClient k8s, String name, String policy, String image) {
        k8s.genericKubernetesResources(Kpack.IMAGE_DEPLOYS).inNamespace(NS).resource(Serialization.unmarshal("""
                {"apiVersion": "rekon.dev/v1alpha1", "kind": "ImageDeploy", "metadata": {"name": "%s", "namespace": "%s"},
                 "spec": %s"deployment": {"spec": {"replicas": 1, "selector": {"matchLabels": {"app": "%s"}},
                     "template": {"metadata": {"labels": {"app": "%s"}}, "spec": {"containers": [
                       {"name": "%s", "image": "%s"}]}}}}}}
                """.formatted(name, NS, policy.isEmpty() ? "{" : policy, name, name, name, image),
                GenericKubernetesResource.class)).create();
    }

    @Test
    void rolloutsAndPushesWorkAndMissingKindsAreNamed() {
        Events.binary("dev.knative.apiserver.ref.add", Events.apiServerExtensions("rekon.dev/v1alpha1", "ImageDeploy", NS,
                "api"), "{\"apiVersion\":\"rekon.dev/v1alpha1\",\"kind\":\"ImageDeploy\",\"namespace\":\"bare\",\"name\":\"api\"}")
                .statusCode(200).body("reason", equalTo("DeploymentCreated"));
        Events.binary("dev.rekon.image.built", java.util.Map.of(), """
                {"namespace": "bare", "image": "web", "latestImage": "registry.example.com/bare/web@%s", "buildNumber": 2}
                """.formatted(DIGEST)).statusCode(200).body("reason", equalTo("DeploymentCreated"));

        distribution(REPO.substring(REPO.indexOf('/') + 1), "1.1.0").statusCode(200)
                .body("pushes[0].replies.reason", equalTo(List.of("ImageUpdated")));
        distribution("bare/unwatched", "1.0.0").statusCode(200)
                .body("pushes[0].replies.reason", equalTo(List.of(PushDispatcher.NO_SUBSCRIBER)));

        notInstalled(Events.binary("dev.knative.apiserver.ref.add", Events.apiServerExtensions("kpack.io/v1alpha2",
                "ClusterBuildpack", "", "java"), "{\"apiVersion\":\"kpack.io/v1alpha2\",\"kind\":\"ClusterBuildpack\",\"name\":\"java\"}"),
                "clusterbuildpacks.kpack.io");
        notInstalled(Events.binary("dev.rekon.buildpacks.published", java.util.Map.of(),
                "{\"image\":\"" + REPO + ":1\"}"), "buildpacks.kpack.io");
        notInstalled(Events.binary("dev.knative.apiserver.ref.update", Events.apiServerExtensions(
                "operator.kyma-project.io/v1beta2", "ModuleReleaseMeta", "kcp-system", "kpack"),
                "{\"apiVersion\":\"operator.kyma-project.io/v1beta2\",\"kind\":\"ModuleReleaseMeta\",\"namespace\":\"kcp-system\",\"name\":\"kpack\"}"),
                "modulereleasemetas.operator.kyma-project.io");
        notInstalled(Events.binary("dev.knative.apiserver.resource.update", Events.apiServerExtensions("kpack.io/v1alpha2",
                "Image", NS, "web"), "{\"apiVersion\":\"kpack.io/v1alpha2\",\"kind\":\"Image\",\"metadata\":{\"name\":\"web\",\"namespace\":\"bare\"}}"),
                "images.kpack.io");

        given().get("/modules").then().statusCode(404).body("error", equalTo("NotInstalled"))
                .body("message", containsString("moduletemplates.operator.kyma-project.io"));
        given().get("/q/health/ready").then().statusCode(200)
                .body("checks.find { it.name == 'optional-kinds' }.data.'buildpacks.kpack.io'", equalTo("not installed"))
                .body("checks.find { it.name == 'optional-kinds' }.data.'imagedeploys.rekon.dev'", equalTo("installed"));
    }

    @Test
    void aResyncSkipsTheAreasWhoseKindsAreMissingAndDoesNotFail() {
        ValidatableResponse reply = Events.binary("dev.rekon.resync", java.util.Map.of(), "{\"scope\":\"all\"}")
                .statusCode(200);
        String body = reply.extract().asString();
        reply.body("reason", not(equalTo("PartlyFailed")))
                .body("message", not(containsString("Could not find the metadata")))
                .body("areas.findAll { it.failed > 0 }.area", equalTo(List.of()))
                .body("areas.find { it.area == 'kymas' }.skipped", containsString("kymas.operator.kyma-project.io"))
                .body("areas.find { it.area == 'modules' }.skipped",
                        containsString("moduletemplates.operator.kyma-project.io"))
                .body("areas.find { it.area == 'buildpacks' }.skipped", containsString("buildpacks.kpack.io"))
                .body("message", containsString("kymas: skipped"));
        org.junit.jupiter.api.Assertions.assertFalse(body.contains("ResourceDefinitionContext"), body);
    }

    static void notInstalled(ValidatableResponse reply, String crd) {
        reply.statusCode(200).body("outcome", equalTo("rejected")).body("reason", equalTo("KindNotInstalled"))
                .body("message", containsString(crd)).body("reason", not(equalTo("ApiRefused")));
    }

    static ValidatableResponse distribution(String repository, String tag) {
        return given().contentType("application/vnd.docker.distribution.events.v1+json")
                .header("Authorization", "Bearer test-token").body("""
                        {"events": [{"id": "%s", "action": "push", "request": {"host": "registry.example.com"},
                          "target": {"mediaType": "application/vnd.oci.image.manifest.v1+json", "repository": "%s",
                            "tag": "%s", "digest": "%s"}}]}""".formatted(java.util.UUID.randomUUID(), repository, tag, DIGEST))
                .when().post("/webhooks/distribution").then();
    }
}
