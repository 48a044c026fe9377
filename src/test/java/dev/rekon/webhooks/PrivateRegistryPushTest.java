package dev.rekon.webhooks;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.rekon.testing.BuildpackageImages;
import dev.rekon.testing.BuildpackageImages.Buildpack;
import dev.rekon.testing.Events;
import dev.rekon.testing.Kpack;
import dev.rekon.testing.LocalCluster;
import dev.rekon.testing.LocalRegistry;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.quarkus.test.junit.QuarkusTest;

/**
 * A push without digest to a private registry (basic auth, Debian's docker-registry) is rolled out with the digest
 * read using the pull secret the subscribing ImageDeploy names: the subscriber's credentials, not Rekon's.
 */
@QuarkusTest
class PrivateRegistryPushTest {

    static final String NS = "private-push";
    static final String USER = "puller";
    static final String PASSWORD = "pull-secret-password";

    static LocalRegistry registry;
    static BuildpackageImages images;

    @BeforeAll
    static void start() throws Exception {
        registry = LocalRegistry.start(LocalRegistry.Options.plain("private-push-registry").withBasicAuth(USER, PASSWORD));
        images = new BuildpackageImages(Files.createDirectories(Path.of("target/private-push-work")));
    }

    @AfterAll
    static void stop() {
        registry.stop();
    }

    @Test
    void readsTheDigestWithTheSubscribersPullSecret() throws Exception {
        KubernetesClient k8s = LocalCluster.get().adminClient();
        Kpack.namespace(k8s, NS);
        String repo = registry.hostPort() + "/team/api";
        String v1 = images.push(repo + ":1.0.0", USER + ":" + PASSWORD, "acme/api", "1.0.0", "p1", Buildpack.of("acme/api@1.0.0"));
        String auth = Base64.getEncoder().encodeToString((USER + ":" + PASSWORD).getBytes(StandardCharsets.UTF_8));
        String config = "{\"auths\":{\"" + registry.hostPort() + "\":{\"auth\":\"" + auth + "\"}}}";
        k8s.secrets().inNamespace(NS).resource(new SecretBuilder().withNewMetadata().withName("pull").endMetadata()
                .withType("kubernetes.io/dockerconfigjson")
                .withData(Map.of(".dockerconfigjson", Base64.getEncoder().encodeToString(config.getBytes(StandardCharsets.UTF_8))))
                .build()).createOr(s -> s.update());
        GenericKubernetesResource idp = k8s.genericKubernetesResources(Kpack.IMAGE_DEPLOYS).inNamespace(NS)
                .resource(Serialization.unmarshal("""
                        {"apiVersion": "rekon.dev/v1alpha1", "kind": "ImageDeploy", "metadata": {"name": "api", "namespace": "%s"},
                         "spec": {"updatePolicy": {"level": "minor"},
                           "deployment": {"spec": {"replicas": 1, "selector": {"matchLabels": {"app": "api"}},
                             "template": {"metadata": {"labels": {"app": "api"}}, "spec": {
                               "imagePullSecrets": [{"name": "pull"}],
                               "containers": [{"name": "api", "image": "%s:1.0.0@%s"}]}}}}}}
                        """.formatted(NS, repo, v1), GenericKubernetesResource.class)).createOr(r -> r.update());
        Events.binary("dev.knative.apiserver.resource.add",
                Events.apiServerExtensions("rekon.dev/v1alpha1", "ImageDeploy", NS, "api"), Kpack.json(idp))
                .statusCode(200).body("reason", equalTo("DeploymentCreated"));

        String v2 = images.push(repo + ":1.1.0", USER + ":" + PASSWORD, "acme/api", "1.1.0", "p2", Buildpack.of("acme/api@1.1.0"));
        dev.rekon.testing.Await.until("the ImageDeploy is in the push index", () -> !PushDispatcher.NO_SUBSCRIBER
                .equals(quayPush(repo, "0.0.0-probe").extract().path("pushes[0].replies[0].reason")));
        quayPush(repo, "1.1.0").statusCode(200).body("pushes[0].push.digest", equalTo(v2))
                .body("pushes[0].replies[0].reason", equalTo("ImageUpdated"));
    }

    static io.restassured.response.ValidatableResponse quayPush(String repo, String tag) {
        String name = repo.substring(repo.indexOf('/') + 1);
        return given().contentType("application/json").header("Authorization", "Bearer quay-test-token").body("""
                {"repository": "%s", "docker_url": "%s", "updated_tags": ["%s"]}""".formatted(name, repo, tag))
                .when().post("/webhooks/quay").then().statusCode(200);
    }
}
