package dev.rekon.webhooks;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;

import jakarta.inject.Inject;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.ValidatableResponse;

@QuarkusTest
@TestProfile(WebhookTestProfile.class)
class WebhookEndpointsTest {

    static final String DISTRIBUTION_TYPE = "application/vnd.docker.distribution.events.v1+json";

    @Inject
    RecordingRouter router;

    @Inject
    KnownDigests registry;

    @BeforeEach
    void forget() {
        router.routed().clear();
    }

    static ValidatableResponse post(String path, String contentType, String authorization, byte[] body) {
        var request = given().contentType(contentType).body(body);
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        return request.when().post(path).then();
    }

    static ValidatableResponse signedGitHub(String event, byte[] body) {
        return given().contentType("application/json").header("X-GitHub-Event", event)
                .header("X-GitHub-Delivery", UUID.randomUUID().toString())
                .header("X-Hub-Signature-256", Signatures.sign("github-test-secret", body)).body(body)
                .when().post("/webhooks/github").then();
    }

    @Test
    void routesTheManifestPushOfADistributionNotification() {
        post("/webhooks/distribution", DISTRIBUTION_TYPE, "Bearer test-token",
                Recorded.resource("distribution/manifest-and-blob-push.json"))
                .statusCode(200)
                .body("endpoint", equalTo("distribution"))
                .body("pushes", hasSize(1))
                .body("pushes[0].push.repository", equalTo("library/test"))
                .body("pushes[0].replies[0].reason", equalTo("Recorded"))
                .body("ignored.reason", equalTo(List.of("NotAManifestPush", "NotAPush")));
        assertEquals(1, router.routed().size());
    }

    @Test
    void routesEveryRealDistributionCaptureWithItsOwnHeaders() {
        List<Recorded.Request> captures = Recorded.distributionCaptures();
        assumeTrue(!captures.isEmpty(), "shared distribution captures not available");
        for (Recorded.Request capture : captures) {
            String auth = capture.headers().getOrDefault("Authorization", "Bearer test-token");
            post("/webhooks/distribution", capture.headers().get("Content-Type") == null ? DISTRIBUTION_TYPE
                    : capture.headers().get("Content-Type"), auth, capture.body()).statusCode(200);
        }
        // The same manifest push appears in three capture files: routed once, then answered as a duplicate.
        assertEquals(List.of("127.0.0.1:5000/demo:1.0", "127.0.0.1:5000/jib/demo:1.0", "127.0.0.1:5002/authdemo:1.0"),
                router.routed().stream().map(p -> p.repositoryReference() + ":" + p.tag()).distinct().sorted().toList());
    }

    @Test
    void saysInTheReplyWhichFieldsAnOlderPayloadWasReadFrom() {
        signedGitHub("registry_package", Recorded.resource("peers/github-registry-package-legacy.json")).statusCode(200)
                .body("pushes[0].push.repository", equalTo("lumen/beacon"))
                .body("pushes[0].push.readFrom", containsString("repository from repository.full_name"));
        post("/webhooks/quay", "application/json", "Bearer quay-test-token", Recorded.resource("quay/repository-push.json"))
                .statusCode(200).body("pushes[0].push", org.hamcrest.Matchers.not(org.hamcrest.Matchers.hasKey("readFrom")));
    }

    @Test
    void answersARedeliveryAsADuplicateAndRoutesNothing() {
        byte[] body = Recorded.resource("harbor/push-artifact.json");
        post("/webhooks/harbor", "application/json", "Bearer harbor-test-token", body).statusCode(200);
        post("/webhooks/harbor", "application/json", "harbor-test-token", body).statusCode(200)
                .body("pushes[0].replies[0].reason", equalTo(PushDispatcher.DUPLICATE));
        assertEquals(1, router.routed().size());
    }

    @Test
    void resolvesTheDigestDockerHubDoesNotSend() {
        given().contentType("application/json").body(Recorded.resource("dockerhub/push.json"))
                .when().post("/webhooks/dockerhub/dockerhub-test-path-token").then().statusCode(200)
                .body("pushes[0].push.digest", equalTo(KnownDigests.DIGEST));
        assertEquals(KnownDigests.DIGEST, router.routed().get(0).digest());
    }

    @Test
    void answersAPushNobodySubscribesToWithoutAskingTheRegistry() {
        int asked = registry.asked();
        given().contentType("application/json").body("""
                {"push_data": {"pushed_at": 1700000000, "tag": "2.0.0"},
                 "repository": {"repo_name": "nobody/web", "name": "web", "namespace": "nobody"}}""")
                .when().post("/webhooks/dockerhub/dockerhub-test-path-token").then().statusCode(200)
                .body("pushes[0].push.digest", equalTo(null))
                .body("pushes[0].replies", hasSize(1))
                .body("pushes[0].replies[0].reason", equalTo(PushDispatcher.NO_SUBSCRIBER))
                .body("pushes[0].replies[0].message", containsString("docker.io/nobody/web"));
        assertEquals(asked, registry.asked());
        assertEquals(0, router.routed().size());
    }

    @Test
    void routesEveryTagOfAQuayPushAcceptingTheTokenAsBasicPassword() {
        post("/webhooks/quay", "application/json", "Basic " + java.util.Base64.getEncoder()
                .encodeToString("rekon:quay-test-token".getBytes(StandardCharsets.UTF_8)),
                Recorded.resource("quay/repository-push.json")).statusCode(200).body("pushes", hasSize(2));
    }

    @Test
    void verifiesGitHubSignatures() {
        byte[] body = Recorded.resource("github/package-published.json");
        signedGitHub("package", body).statusCode(200)
                .body("pushes[0].push.repository", equalTo("acme/shop-api"));
        given().contentType("application/json").header("X-GitHub-Event", "package")
                .header("X-Hub-Signature-256", Signatures.sign("another-secret", body)).body(body)
                .when().post("/webhooks/github").then().statusCode(401)
                .body("message", containsString("X-Hub-Signature-256"));
        assertEquals(1, router.routed().size());
    }

    @Test
    void harborCloudEventsReachTheFunctionOnlyWithTheHarborToken() {
        byte[] event = Recorded.resource("harbor-cloudevents/artifact-pushed.json");
        post("/", "application/cloudevents+json", null, event).statusCode(401)
                .body("message", containsString("Authorization: Bearer"));
        given().contentType("application/json").header("ce-id", "b1").header("ce-specversion", "1.0")
                .header("ce-source", "/projects/1/webhook/policies/3").header("ce-type", "harbor.artifact.pushed")
                .body(Recorded.json("harbor-cloudevents/artifact-pushed.json").get("data").toString())
                .when().post("/").then().statusCode(401);
        assertEquals(0, router.routed().size());
        post("/", "application/cloudevents+json", "Bearer harbor-test-token", event).statusCode(200)
                .body("type", equalTo(HarborCloudEventFunction.REPLY_TYPE)).body("data.reason", equalTo("Recorded"));
        post("/webhooks/harbor", "application/cloudevents+json", "Bearer harbor-test-token", event).statusCode(200)
                .body("pushes[0].replies[0].reason", equalTo(PushDispatcher.DUPLICATE));
        assertEquals(1, router.routed().size());
    }

    @Test
    void aHarborCloudEventsReplySaysWhichFieldsItWasReadFrom() {
        com.fasterxml.jackson.databind.node.ObjectNode event = (com.fasterxml.jackson.databind.node.ObjectNode) Recorded
                .json("harbor-cloudevents/artifact-pushed.json");
        event.put("id", UUID.randomUUID().toString());
        ((com.fasterxml.jackson.databind.node.ObjectNode) event.at("/data/resources/0")).remove("tag");
        post("/", "application/cloudevents+json", "Bearer harbor-test-token", event.toString().getBytes(StandardCharsets.UTF_8))
                .statusCode(200).body("data.readFrom", equalTo("tag from resource_url (the resource has no 'tag')"));
    }

    @Test
    void refusesBadRequestsWithAMessageAndRoutesNothing() {
        byte[] push = Recorded.resource("distribution/manifest-and-blob-push.json");
        post("/webhooks/distribution", DISTRIBUTION_TYPE, null, push).statusCode(401).body("error", equalTo("Unauthorized"));
        post("/webhooks/distribution", DISTRIBUTION_TYPE, "Bearer nope", push).statusCode(401);
        given().contentType("application/json").body(Recorded.resource("dockerhub/push.json"))
                .when().post("/webhooks/dockerhub").then().statusCode(401)
                .body("message", containsString("/webhooks/dockerhub/<token>"));
        post("/webhooks/distribution", "text/plain", "Bearer test-token", push).statusCode(415)
                .body("message", containsString("application/vnd.docker.distribution.events.v1+json"));
        post("/webhooks/distribution", DISTRIBUTION_TYPE, "Bearer test-token", "{\"events\":[".getBytes())
                .statusCode(400).body("message", containsString("not valid JSON"));
        post("/webhooks/distribution", DISTRIBUTION_TYPE, "Bearer test-token", "[]".getBytes())
                .statusCode(400).body("message", equalTo("the body must be a JSON object"));
        post("/webhooks/distribution", DISTRIBUTION_TYPE, "Bearer test-token", new byte[1048577])
                .statusCode(413).body("message", containsString("rekon.webhooks.max-body-bytes"));
        post("/webhooks/nexus", "application/json", null, "{}".getBytes()).statusCode(404)
                .body("error", equalTo("NoWebhookEndpoint"));
        assertEquals(0, router.routed().size());
    }
}
