package dev.rekon.declared.e2e;

import static io.restassured.RestAssured.given;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import org.junit.jupiter.api.BeforeEach;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.rekon.testing.Events;
import dev.rekon.testing.GitWorkdir;
import dev.rekon.testing.LocalCluster;
import dev.rekon.testing.LocalGitServer;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.restassured.response.ValidatableResponse;

/**
 * A namespace, a git repository on the real git server and a DeclaredState following its main branch, per test;
 * the git command writes the branch, CloudEvents, webhooks and resyncs reach Rekon as a user would send them.
 */
abstract class DeclaredFixtures {

    static final String API_VERSION = "rekon.dev/v1alpha1";
    static final String HMAC_SECRET = "git-test-secret";
    static final ObjectMapper JSON = new ObjectMapper();

    final KubernetesClient admin = LocalCluster.get().adminClient();
    final LocalGitServer git = LocalGitServer.get();
    String ns;
    String repo;
    GitWorkdir work;

    @BeforeEach
    void repository() {
        String id = UUID.randomUUID().toString().substring(0, 8);
        ns = "ds-" + id;
        repo = "apps-" + id;
        namespace(ns);
        git.createRepo(repo);
        work = git.clone(repo);
        admin.secrets().inNamespace(ns).resource(new SecretBuilder().withNewMetadata().withName("git-creds").endMetadata()
                .addToStringData("username", LocalGitServer.USER).addToStringData("password", LocalGitServer.PASSWORD)
                .build()).create();
    }

    void namespace(String name) {
        admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(name).endMetadata().build()).create();
    }

    static String configMap(String name, String value) {
        return "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: " + name + "\ndata:\n  value: \"" + value + "\"\n";
    }

    /** A DeclaredState named {@code apps} following main of this test's repository, with extra spec YAML. */
    void declaredState(String extraSpec) {
        String yaml = """
                apiVersion: rekon.dev/v1alpha1
                kind: DeclaredState
                metadata: {name: apps, namespace: NS}
                spec:
                  git: {url: "URL", branch: main, secretRef: {name: git-creds}}
                  namespaces: [NS]
                """.replace("NS", ns).replace("URL", git.url(repo)) + (extraSpec == null ? "" : extraSpec);
        admin.resource(Serialization.unmarshal(yaml, GenericKubernetesResource.class)).create();
    }

    /**
     * A DeclaredState named {@code apps} with {@code git} as its whole spec.git (flow YAML, e.g.
     * {@code {url: "...", path: apps}}) and extra spec YAML ({@code spec.namespaces} included).
     */
    void declaredState(String gitSpec, String spec) {
        String yaml = """
                apiVersion: rekon.dev/v1alpha1
                kind: DeclaredState
                metadata: {name: apps, namespace: NS}
                spec:
                  git: GIT
                """.replace("NS", ns).replace("GIT", gitSpec) + spec;
        admin.resource(Serialization.unmarshal(yaml, GenericKubernetesResource.class)).create();
    }

    /** This test's repository on main with the test credentials, and {@code more} fields (", path: apps"). */
    String gitSpec(String more) {
        return "{url: \"" + git.url(repo) + "\", branch: main, secretRef: {name: git-creds}" + more + "}";
    }

    /** Sets {@code spec.<field>} of the DeclaredState to a JSON value. */
    void setSpec(String field, Object value) {
        admin.genericKubernetesResources(API_VERSION, "DeclaredState").inNamespace(ns).withName("apps").edit(o -> {
            @SuppressWarnings("unchecked")
            Map<String, Object> spec = (Map<String, Object>) o.getAdditionalProperties().get("spec");
            spec.put(field, value);
            return o;
        });
    }

    GenericKubernetesResource state() {
        return admin.genericKubernetesResources(API_VERSION, "DeclaredState").inNamespace(ns).withName("apps").get();
    }

    JsonNode status() {
        GenericKubernetesResource s = state();
        return s == null ? JSON.nullNode() : JSON.valueToTree(s.getAdditionalProperties().get("status"));
    }

    JsonNode condition(String type) {
        for (JsonNode c : status().path("conditions")) {
            if (type.equals(c.path("type").asText())) {
                return c;
            }
        }
        return JSON.missingNode();
    }

    io.fabric8.kubernetes.api.model.ConfigMap cm(String name) {
        return admin.configMaps().inNamespace(ns).withName(name).get();
    }

    ValidatableResponse event() {
        return Events.binary("dev.knative.apiserver.resource.update",
                Events.apiServerExtensions(API_VERSION, "DeclaredState", ns, "apps"),
                "{\"apiVersion\":\"" + API_VERSION + "\",\"kind\":\"DeclaredState\",\"metadata\":{\"name\":\"apps\","
                        + "\"namespace\":\"" + ns + "\"}}").statusCode(200);
    }

    ValidatableResponse reconcile() {
        return Events.binary("dev.rekon.declared.reconcile", Map.of(),
                "{\"namespace\":\"" + ns + "\",\"name\":\"apps\"}");
    }

    ValidatableResponse resync() {
        return Events.binary("dev.rekon.resync", Map.of(), "{\"scope\":\"declared\",\"namespace\":\"" + ns + "\"}")
                .statusCode(200);
    }

    /** A GitHub push delivery for this repository's branch, signed with the test secret. */
    ValidatableResponse githubPush(String branch, boolean deleted) {
        String body = """
                {"ref":"refs/heads/BRANCH","before":"0000000000000000000000000000000000000001",
                 "after":"AFTER","deleted":DELETED,
                 "repository":{"full_name":"e2e/REPO","clone_url":"URL","html_url":"URL_HTML"}}
                """.replace("BRANCH", branch).replace("REPO", repo).replace("URL_HTML", git.url(repo).replace(".git", ""))
                .replace("URL", git.url(repo)).replace("DELETED", String.valueOf(deleted))
                .replace("AFTER", deleted ? "0000000000000000000000000000000000000000" : work.head());
        return given().header("X-GitHub-Event", "push").header("X-GitHub-Delivery", UUID.randomUUID().toString())
                .header("X-Hub-Signature-256", "sha256=" + hmac(body)).contentType("application/json").body(body)
                .post("/webhooks/git").then();
    }

    static String hmac(String body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(HMAC_SECRET.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return java.util.HexFormat.of().formatHex(mac.doFinal(body.getBytes(StandardCharsets.UTF_8)));
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    List<String> labelled(String kind) {
        return admin.genericKubernetesResources(kind.equals("Deployment") ? "apps/v1" : "v1", kind).inNamespace(ns)
                .withLabel("rekon.dev/declared-state", ns + ".apps").list().getItems().stream()
                .map(o -> o.getMetadata().getName()).sorted().toList();
    }
}
