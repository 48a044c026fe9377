package dev.rekon.webhooks;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Supplier;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.rekon.testing.BuildpackageImages;
import dev.rekon.testing.BuildpackageImages.Buildpack;
import dev.rekon.testing.Events;
import dev.rekon.testing.Kpack;
import dev.rekon.testing.LocalCluster;
import dev.rekon.testing.LocalRegistry;
import dev.rekon.testing.RekonTestResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Registry pushes end to end: images pushed with skopeo to the real registry, whose own notifications reach
 * {@code /webhooks/distribution}; the results are polled from the real apiserver. Nothing is posted by the test
 * except the ImageDeploy add event that creates the Deployment.
 */
@QuarkusTest
@QuarkusTestResource(value = RekonTestResource.class, restrictToAnnotatedClass = false)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RegistryPushEndToEndTest {

    static final String NS = "push-e2e";
    static final Duration TIMEOUT = Duration.ofSeconds(60);
    static final ObjectMapper JSON = new ObjectMapper();
    static final ResourceDefinitionContext BUILDPACKS = new ResourceDefinitionContext.Builder().withGroup("kpack.io")
            .withVersion("v1alpha2").withPlural("buildpacks").withKind("Buildpack").withNamespaced(true).build();

    static KubernetesClient k8s;
    static BuildpackageImages images;
    static String app;
    static String buildpackage;
    static String runningDigest;

    @BeforeAll
    static void setUp() throws Exception {
        k8s = LocalCluster.get().adminClient();
        images = new BuildpackageImages(Files.createDirectories(Path.of("target/push-e2e-work")));
        app = LocalRegistry.get().hostPort() + "/push-e2e/app";
        buildpackage = LocalRegistry.get().hostPort() + "/push-e2e/buildpack";
        Kpack.namespace(k8s, NS);
    }

    @Test
    @Order(1)
    void aPushedHigherVersionIsRolledOutUnderTheUpdatePolicy() throws Exception {
        String v1 = push(app + ":1.0.0", "1.0.0", "app-1");
        GenericKubernetesResource idp = k8s.genericKubernetesResources(Kpack.IMAGE_DEPLOYS).inNamespace(NS)
                .resource(Serialization.unmarshal("""
                        {"apiVersion": "rekon.dev/v1alpha1", "kind": "ImageDeploy",
                         "metadata": {"name": "api", "namespace": "%s"},
                         "spec": {"updatePolicy": {"semver": "^1.0"},
                           "deployment": {"spec": {"replicas": 1, "selector": {"matchLabels": {"app": "api"}},
                             "template": {"metadata": {"labels": {"app": "api"}}, "spec": {
                               "containers": [{"name": "api", "image": "%s:1.0.0@%s"}]}}}}}}
                        """.formatted(NS, app, v1), GenericKubernetesResource.class)).create();
        Events.binary("dev.knative.apiserver.resource.add",
                Events.apiServerExtensions("rekon.dev/v1alpha1", "ImageDeploy", NS, "api"), Kpack.json(idp))
                .statusCode(200).body("reason", equalTo("DeploymentCreated"));

        String v2 = push(app + ":1.1.0", "1.1.0", "app-2");

        String expected = app + ":1.1.0@" + v2;
        awaitEquals(expected, () -> image("api"));
        // The status follows the Deployment's write within the status interval (StatusPasses), not in the same request.
        awaitEquals(expected, () -> entry(status().path("images"), "container/api").path("image").asText());
        JsonNode status = status();
        JsonNode progressing = entry(status.path("conditions"), "Progressing");
        assertEquals("ImageUpdated", progressing.path("reason").asText());
        dev.rekon.testing.Await.until("an ImageUpdated Event on the Deployment", () -> k8s.v1().events().inNamespace(NS)
                .list().getItems().stream()
                .anyMatch(e -> e.getInvolvedObject().getKind().equals("Deployment")
                        && e.getReason().equals("ImageUpdated") && e.getMessage().contains(expected)));
        runningDigest = v2;
    }

    @Test
    @Order(2)
    void aPushedBuildpackageRefreshesTheBuildpackNamingIt() throws Exception {
        k8s.genericKubernetesResources(BUILDPACKS).inNamespace(NS)
                .resource(Serialization.unmarshal("""
                        {"apiVersion": "kpack.io/v1alpha2", "kind": "Buildpack", "metadata": {"name": "push", "namespace": "%s"},
                         "spec": {"source": {"image": "%s:1"}}}""".formatted(NS, buildpackage),
                        GenericKubernetesResource.class)).create();

        images.push(buildpackage + ":1", null, "acme/push", "1.0.0", "bp-1", Buildpack.of("acme/push@1.0.0"));

        awaitEquals("acme/push@1.0.0", () -> buildpackVersion());
    }

    @Test
    @Order(3)
    void anOlderVersionOrTheSameDigestAgainChangesNothing() throws Exception {
        String before = k8s.apps().deployments().inNamespace(NS).withName("api").get().getMetadata().getResourceVersion();

        push(app + ":1.0.1", "1.0.1", "app-3");
        retag(app + "@" + runningDigest, app + ":1.1.0");
        // The registry notifies in push order: once this later push has been routed, so have the two above.
        images.push(buildpackage + ":1", null, "acme/push", "1.1.0", "bp-2", Buildpack.of("acme/push@1.1.0"));
        awaitEquals("acme/push@1.1.0", () -> buildpackVersion());

        assertEquals(app + ":1.1.0@" + runningDigest, image("api"));
        assertEquals(before, k8s.apps().deployments().inNamespace(NS).withName("api").get().getMetadata()
                .getResourceVersion());
    }

    @Test
    @Order(4)
    void pushesWithoutDigestAskTheRegistryOnlyForSubscribedRepositories() {
        double before = registryRequests();
        quay("127.0.0.1:1/nobody/app", "1.0.0").statusCode(200)
                .body("pushes[0].replies.reason", equalTo(java.util.List.of(PushDispatcher.NO_SUBSCRIBER)));
        given().contentType("application/json").body("""
                {"push_data": {"pushed_at": 1700000000, "tag": "9.9.9"},
                 "repository": {"namespace": "nobody", "name": "web"}}""")
                .when().post("/webhooks/dockerhub/dockerhub-test-path-token").then().statusCode(200)
                .body("pushes[0].replies.reason", equalTo(java.util.List.of(PushDispatcher.NO_SUBSCRIBER)));
        assertEquals(before, registryRequests(), "an unsubscribed push must not reach any registry");

        quay(app, "1.1.0").statusCode(200).body("pushes[0].push.digest", equalTo(runningDigest))
                .body("pushes[0].replies[0].reason", equalTo("UpToDate"));
        assertTrue(registryRequests() > before, "a subscribed push without digest reads it from the registry");
    }

    static io.restassured.response.ValidatableResponse quay(String repository, String tag) {
        String name = repository.substring(repository.indexOf('/') + 1);
        return given().contentType("application/json").header("Authorization", "Bearer quay-test-token").body("""
                {"repository": "%s", "namespace": "%s", "name": "%s", "docker_url": "%s", "updated_tags": ["%s"]}"""
                .formatted(name, name.split("/")[0], name.substring(name.indexOf('/') + 1), repository, tag))
                .when().post("/webhooks/quay").then();
    }

    /** Rekon's own count of registry requests, {@code rekon_registry_requests_total} summed over its series. */
    static double registryRequests() {
        String metrics = given().when().get("/q/metrics").then().statusCode(200).extract().asString();
        return metrics.lines().filter(l -> l.startsWith("rekon_registry_requests_total"))
                .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).sum();
    }

    static String push(String target, String version, String salt) throws Exception {
        return images.push(target, null, "acme/app", version, salt, Buildpack.of("acme/app@" + version));
    }

    /** Pushes the manifest again under a tag: a new notification for the same digest. */
    static void retag(String source, String target) throws Exception {
        Process p = new ProcessBuilder("skopeo", "copy", "--quiet", "--src-tls-verify=false", "--dest-tls-verify=false",
                "docker://" + source, "docker://" + target).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertEquals(0, p.waitFor(), out);
    }

    static JsonNode status() {
        return JSON.valueToTree(k8s.genericKubernetesResources(Kpack.IMAGE_DEPLOYS).inNamespace(NS).withName("api").get())
                .path("status");
    }

    static String image(String deployment) {
        var d = k8s.apps().deployments().inNamespace(NS).withName(deployment).get();
        return d == null ? null : d.getSpec().getTemplate().getSpec().getContainers().get(0).getImage();
    }

    static String buildpackVersion() {
        JsonNode bp = JSON.valueToTree(k8s.genericKubernetesResources(BUILDPACKS)
                .inNamespace(NS).withName("push").get());
        JsonNode first = bp.at("/status/buildpacks/0");
        return first.isMissingNode() ? null : first.path("id").asText() + "@" + first.path("version").asText();
    }

    static JsonNode entry(JsonNode list, String key) {
        for (JsonNode n : list) {
            if (key.equals(n.path("name").asText()) || key.equals(n.path("type").asText())) {
                return n;
            }
        }
        return JSON.createObjectNode();
    }

    /** Polls the apiserver until the value is as expected, for at most {@link #TIMEOUT}. */
    static void awaitEquals(String expected, Supplier<String> actual) throws InterruptedException {
        Instant deadline = Instant.now().plus(TIMEOUT);
        String last = actual.get();
        while (!expected.equals(last) && Instant.now().isBefore(deadline)) {
            Thread.sleep(200);
            last = actual.get();
        }
        assertEquals(expected, last, "not reached within " + TIMEOUT.toSeconds() + " s");
    }
}
