package dev.rekon.status;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.oneOf;
import static org.hamcrest.Matchers.not;

import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.rekon.testing.Await;
import dev.rekon.testing.Kpack;
import dev.rekon.testing.LocalCluster;
import dev.rekon.testing.RekonTestResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;

/** With {@code rekon.status.token} and an explicit {@code rekon.namespaces}: who may read, and what they see. */
@QuarkusTest
@TestProfile(StatusTokenTest.Protected.class)
@QuarkusTestResource(value = RekonTestResource.class, restrictToAnnotatedClass = false)
class StatusTokenTest {

    static final String TOKEN = "status-test-token";

    public static class Protected implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("rekon.status.token", TOKEN, "rekon.namespaces", "demo,kpack");
        }
    }

    @Test
    void bothPagesWantTheBearerToken() {
        for (String path : new String[] { "/status", "/" }) {
            given().get(path).then().statusCode(401).header("WWW-Authenticate", "Bearer realm=\"rekon-status\"")
                    .body("error", equalTo("Unauthorized"));
            given().header("Authorization", "Bearer wrong").get(path).then().statusCode(401);
            Loaded.get(path, "Bearer " + TOKEN).then().statusCode(200);
        }
    }

    @Test
    void onlyAllowedNamespacesAreShown() {
        var k8s = LocalCluster.get().adminClient();
        imageDeploy(k8s, "kpack", "token-allowed");
        imageDeploy(k8s, "default", "token-hidden");
        Await.until("the allowed ImageDeploy in the report", () -> Loaded.get("/status", "Bearer " + TOKEN).then()
                .statusCode(200).extract().jsonPath().getList("rollouts.name").contains("token-allowed"));
        given().header("Authorization", "Bearer " + TOKEN).get("/status?namespace=default").then().statusCode(403)
                .body("error", equalTo("NamespaceNotAllowed"));
        given().header("Authorization", "Bearer " + TOKEN).get("/status").then().statusCode(200)
                .body("rollouts.namespace", everyItem(oneOf("demo", "kpack")))
                .body("rollouts.name", not(hasItem("token-hidden")))
                .body("builders.namespace", everyItem(oneOf("demo", "kpack")));
    }

    static void imageDeploy(KubernetesClient k8s, String ns, String name) {
        Kpack.namespace(k8s, ns);
        GenericKubernetesResource idp = Serialization.unmarshal("""
                {"apiVersion": "rekon.dev/v1alpha1", "kind": "ImageDeploy", "metadata": {"name": "%s", "namespace": "%s"},
                 "spec": {"deployment": {"spec": {"template": {"spec": {"containers": [{"name": "web", "image": "REF=%s"}]}}}}}}
                """.formatted(name, ns, name), GenericKubernetesResource.class);
        k8s.genericKubernetesResources(Kpack.IMAGE_DEPLOYS).inNamespace(ns).resource(idp).createOr(x -> x.update());
    }
}
