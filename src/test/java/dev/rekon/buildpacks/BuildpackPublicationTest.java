package dev.rekon.buildpacks;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.rekon.buildpacks.apply.KubeBuildpackGateway;
import dev.rekon.buildpacks.plan.BuildpackResolver;
import dev.rekon.testing.Await;
import dev.rekon.testing.BuildpackageImages.Buildpack;
import dev.rekon.testing.BuildpackageImages;
import dev.rekon.testing.Events;
import dev.rekon.testing.Kpack;
import dev.rekon.testing.LocalCluster;
import dev.rekon.testing.LocalRegistry;
import dev.rekon.testing.RekonTestResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;

/**
 * Buildpack publication end to end: buildpackages built in the test and pushed to real registries (one behind
 * htpasswd, read with a ServiceAccount's pull secret), kpack objects on the real apiserver, events posted to the
 * running functions, statuses read back.
 */
@QuarkusTest
@QuarkusTestResource(value = RekonTestResource.class, restrictToAnnotatedClass = false)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class BuildpackPublicationTest {

    static final String NS = "bp-e2e";
    static final String ADD = "dev.knative.apiserver.resource.add";
    static final String USER = "puller";
    static final String PASSWORD = "pull-s3cret";
    static final ObjectMapper JSON = new ObjectMapper();

    static KubernetesClient k8s;
    static LocalRegistry locked;
    static LocalRegistry quiet;
    static BuildpackageImages images;
    static String javaImage;

    @BeforeAll
    static void setUp() throws Exception {
        k8s = LocalCluster.get().adminClient();
        locked = LocalRegistry.start(LocalRegistry.Options.plain("bp-e2e-locked").withBasicAuth(USER, PASSWORD));
        images = new BuildpackageImages(Files.createDirectories(Path.of("target/bp-e2e-work")));
        // A registry without notifications: this test drives every refresh itself (pushes that notify are
        // routed on their own, see RegistryPushEndToEndTest).
        quiet = LocalRegistry.start(LocalRegistry.Options.plain("bp-e2e-quiet"));
        javaImage = quiet.hostPort() + "/bp/java:1";
        images.push(javaImage, null, "acme/java", "1.0.0", "r1",
                Buildpack.of("acme/java@1.0.0", "acme/jvm@1.0.0"), Buildpack.of("acme/jvm@1.0.0"));
        images.push(locked.hostPort() + "/private/node:1", USER + ":" + PASSWORD, "acme/node", "1.0.0", "r1",
                Buildpack.of("acme/node@1.0.0"));
        Kpack.namespace(k8s, NS);
        puller(NS, locked);
        create("""
                {"apiVersion":"kpack.io/v1alpha2","kind":"ClusterBuildpack","metadata":{"name":"e2e-java"},
                 "spec":{"source":{"image":"%s"}}}""".formatted(javaImage));
        create("""
                {"apiVersion":"kpack.io/v1alpha2","kind":"Buildpack","metadata":{"name":"node","namespace":"%s"},
                 "spec":{"serviceAccountName":"puller","source":{"image":"%s/private/node:1"}}}""".formatted(NS, locked.hostPort()));
        create("""
                {"apiVersion":"kpack.io/v1alpha2","kind":"Builder","metadata":{"name":"web","namespace":"%s"},
                 "spec":{"tag":"%s/builders/web","serviceAccountName":"puller",
                   "order":[{"group":[{"id":"acme/java"},{"id":"acme/node","optional":true}]}]}}""".formatted(NS, javaImage));
    }

    @AfterAll
    static void tearDown() {
        locked.stop();
        quiet.stop();
    }

    @Test
    @Order(1)
    void aClusterBuildpackGetsItsStatusAndTheBuilderSaysWhatIsMissing() {
        send("ClusterBuildpack", null, "e2e-java").body("outcome", equalTo("applied"));

        JsonNode cbp = get("ClusterBuildpack", null, "e2e-java");
        assertEquals("True", cbp.at("/status/conditions/0/status").asText());
        assertEquals(List.of("acme/java@1.0.0", "acme/jvm@1.0.0"), keys(cbp.at("/status/buildpacks")));
        JsonNode builder = get("Builder", NS, "web");
        assertEquals("could not find buildpack with id 'acme/node'", condition(builder, "UpToDate").path("message").asText());
    }

    @Test
    @Order(2)
    void aPrivateBuildpackIsReadWithThePullSecretAndTheBuilderResolves() throws Exception {
        send("Buildpack", NS, "node").body("outcome", equalTo("applied"));

        JsonNode bp = get("Buildpack", NS, "node");
        assertEquals(List.of("acme/node@1.0.0"), keys(bp.at("/status/buildpacks")));
        JsonNode builder = get("Builder", NS, "web");
        assertEquals("True", condition(builder, "Ready").path("status").asText());
        assertEquals("True", condition(builder, "UpToDate").path("status").asText());
        assertEquals(JSON.readTree("""
                [{"group":[{"id":"acme/java","version":"1.0.0"},{"id":"acme/node","version":"1.0.0","optional":true}]}]"""),
                builder.at("/status/order"));
        assertEquals(List.of("acme/java@1.0.0", "acme/jvm@1.0.0", "acme/node@1.0.0"), keys(builder.at("/status/builderMetadata")));
    }

    @Test
    @Order(3)
    void theSameEventsAgainWriteNothing() {
        String bpVersion = get("Buildpack", NS, "node").at("/metadata/resourceVersion").asText();
        String builderVersion = get("Builder", NS, "web").at("/metadata/resourceVersion").asText();

        send("Buildpack", NS, "node").body("outcome", equalTo("unchanged"));
        send("Builder", NS, "web").body("outcome", equalTo("unchanged"));

        assertEquals(bpVersion, get("Buildpack", NS, "node").at("/metadata/resourceVersion").asText());
        assertEquals(builderVersion, get("Builder", NS, "web").at("/metadata/resourceVersion").asText());
    }

    @Test
    @Order(4)
    void aPublishedImageUpdatesItsBuildpackAndTheBuilder() throws Exception {
        images.push(javaImage, null, "acme/java", "1.1.0", "r2",
                Buildpack.of("acme/java@1.1.0", "acme/jvm@1.1.0"), Buildpack.of("acme/jvm@1.1.0"));

        Events.binary(BuildpackFunctions.PUBLISHED_TYPE, Map.of(), "{\"image\":\"" + javaImage + "\"}")
                .statusCode(200).body("outcome", equalTo("applied"));

        assertEquals(List.of("acme/java@1.1.0", "acme/jvm@1.1.0"), keys(get("ClusterBuildpack", null, "e2e-java").at("/status/buildpacks")));
        assertEquals("acme/java", get("Builder", NS, "web").at("/status/order/0/group/0/id").asText());
        assertEquals("1.1.0", get("Builder", NS, "web").at("/status/order/0/group/0/version").asText());
    }

    @Test
    @Order(5)
    void aClusterBuilderResolvesFromAReferenceModeEventAndRefusesNamespacedBuildpacks() {
        create("""
                {"apiVersion":"kpack.io/v1alpha2","kind":"ClusterBuilder","metadata":{"name":"e2e-cluster"},
                 "spec":{"tag":"%s/builders/cluster","serviceAccountRef":{"name":"puller","namespace":"%s"},
                   "order":[{"group":[{"kind":"ClusterBuildpack","name":"e2e-java"}]}]}}""".formatted(javaImage, NS));
        String ref = "{\"apiVersion\":\"kpack.io/v1alpha2\",\"kind\":\"ClusterBuilder\",\"name\":\"e2e-cluster\"}";
        Map<String, String> ext = Map.of("apiversion", "kpack.io/v1alpha2", "kind", "ClusterBuilder", "name", "e2e-cluster");
        Events.binary("dev.knative.apiserver.ref.add", ext, ref).statusCode(200).body("outcome", equalTo("applied"));
        JsonNode builder = get("ClusterBuilder", null, "e2e-cluster");
        assertEquals("acme/java", builder.at("/status/order/0/group/0/id").asText());
        assertEquals("True", condition(builder, "UpToDate").path("status").asText());

        create("""
                {"apiVersion":"kpack.io/v1alpha2","kind":"ClusterBuilder","metadata":{"name":"e2e-wrong"},
                 "spec":{"tag":"%s/builders/wrong","order":[{"group":[{"kind":"Buildpack","name":"node"}]}]}}"""
                .formatted(javaImage));
        Map<String, String> wrong = Map.of("apiversion", "kpack.io/v1alpha2", "kind", "ClusterBuilder", "name", "e2e-wrong");
        Events.binary("dev.knative.apiserver.ref.update", wrong,
                "{\"apiVersion\":\"kpack.io/v1alpha2\",\"kind\":\"ClusterBuilder\",\"name\":\"e2e-wrong\"}")
                .statusCode(200);
        JsonNode refused = get("ClusterBuilder", null, "e2e-wrong");
        assertEquals("False", condition(refused, "UpToDate").path("status").asText());
        assertEquals(BuildpackResolver.NAMESPACED_IN_CLUSTER_BUILDER, condition(refused, "UpToDate").path("reason").asText());
    }

    /**
     * The page plans the buildpacks now, from the watches and the buildpackages read above: a status edited by hand
     * shows as the next event writes it, and a spec naming an image never read says so. No event is sent.
     */
    @Test
    @Order(6)
    void thePageShowsThePlannedRowsNotTheStatusesAsWritten() {
        var bps = LocalCluster.get().adminClient().genericKubernetesResources(KubeBuildpackGateway.context("Buildpack"));
        bps.inNamespace(NS).withName("node").subresource("status").patch(PatchContext.of(PatchType.JSON_MERGE),
                "{\"status\":{\"conditions\":[{\"type\":\"Ready\",\"status\":\"False\",\"reason\":"
                        + "\"EditedByHand\",\"message\":\"edited\"}],\"buildpacks\":null}}");
        String neverRead = quiet.hostPort() + "/bp/java:never-read";
        LocalCluster.get().adminClient().genericKubernetesResources(KubeBuildpackGateway.context("ClusterBuildpack"))
                .withName("e2e-java").patch(PatchContext.of(PatchType.JSON_MERGE),
                        "{\"spec\":{\"source\":{\"image\":\"" + neverRead + "\"}}}");
        Await.until("the page shows the watched objects planned", Duration.ofSeconds(30), () -> {
            JsonPath page = given().get("/status?area=buildpacks").then().statusCode(200).extract().jsonPath();
            Map<String, Object> node = row(page, "node");
            Map<String, Object> java = row(page, "e2e-java");
            return neverRead.equals(java.get("image")) && "BuildpackageNotRead".equals(java.get("reason"))
                    && "Unknown".equals(java.get("ready")) && "True".equals(node.get("ready"))
                    && "BuildpackageRead".equals(node.get("reason"))
                    && List.of("acme/node@1.0.0").equals(node.get("buildpacks"));
        });
        assertEquals("EditedByHand", condition(get("Buildpack", NS, "node"), "Ready").path("reason").asText(),
                "the page wrote nothing");
    }

    static Map<String, Object> row(JsonPath page, String name) {
        return page.getList("buildpacks", Map.class).stream().filter(r -> name.equals(r.get("name"))).findFirst()
                .map(r -> (Map<String, Object>) r).orElse(Map.of());
    }

    /** ServiceAccount {@code puller} in the namespace, whose pull secret logs in to the registry as USER. */
    static void puller(String namespace, LocalRegistry registry) {
        KubernetesClient admin = LocalCluster.get().adminClient();
        String auth = Base64.getEncoder().encodeToString((USER + ":" + PASSWORD).getBytes(StandardCharsets.UTF_8));
        String config = "{\"auths\":{\"" + registry.hostPort() + "\":{\"auth\":\"" + auth + "\"}}}";
        admin.secrets().inNamespace(namespace).resource(new SecretBuilder().withNewMetadata().withName("locked-pull")
                .endMetadata().withType("kubernetes.io/dockerconfigjson")
                .addToData(".dockerconfigjson", Base64.getEncoder().encodeToString(config.getBytes(StandardCharsets.UTF_8)))
                .build()).createOr(s -> s.update());
        admin.serviceAccounts().inNamespace(namespace).resource(new ServiceAccountBuilder().withNewMetadata()
                .withName("puller").endMetadata().addNewImagePullSecret("locked-pull").build()).createOr(s -> s.update());
    }

    static io.restassured.response.ValidatableResponse send(String kind, String namespace, String name) {
        JsonNode object = get(kind, namespace, name);
        Map<String, String> ext = new HashMap<>(Map.of("apiversion", "kpack.io/v1alpha2", "kind", kind, "name", name));
        if (namespace != null) {
            ext.put("namespace", namespace);
        }
        return Events.binary(ADD, ext, object.toString()).statusCode(200);
    }

    static void create(String json) {
        GenericKubernetesResource r = Serialization.unmarshal(json, GenericKubernetesResource.class);
        String kind = r.getKind();
        var op = LocalCluster.get().adminClient().genericKubernetesResources(KubeBuildpackGateway.context(kind));
        (r.getMetadata().getNamespace() == null ? op.resource(r) : op.inNamespace(r.getMetadata().getNamespace()).resource(r))
                .createOr(x -> x.update());
    }

    static JsonNode get(String kind, String namespace, String name) {
        var op = LocalCluster.get().adminClient().genericKubernetesResources(KubeBuildpackGateway.context(kind));
        GenericKubernetesResource r = namespace == null ? op.withName(name).get() : op.inNamespace(namespace).withName(name).get();
        return JSON.valueToTree(r);
    }

    static JsonNode condition(JsonNode object, String type) {
        for (JsonNode c : object.at("/status/conditions")) {
            if (type.equals(c.path("type").asText())) {
                return c;
            }
        }
        return JSON.createObjectNode();
    }

    static List<String> keys(JsonNode entries) {
        List<String> out = new java.util.ArrayList<>();
        entries.forEach(e -> out.add(e.path("id").asText() + "@" + e.path("version").asText()));
        return out;
    }
}
