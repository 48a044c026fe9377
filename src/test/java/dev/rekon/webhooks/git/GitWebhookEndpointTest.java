package dev.rekon.webhooks.git;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import jakarta.inject.Inject;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.rekon.webhooks.PushDispatcher;
import dev.rekon.webhooks.Signatures;
import dev.rekon.webhooks.WebhookTestProfile;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.ValidatableResponse;

@QuarkusTest
@TestProfile(WebhookTestProfile.class)
class GitWebhookEndpointTest {

    static final String SECRET = "git-test-secret";

    @Inject
    RecordingGitPushRouter router;

    @BeforeEach
    void forget() {
        router.pushed().clear();
    }

    static ValidatableResponse post(Map<String, String> headers, byte[] body) {
        return given().contentType("application/json").headers(headers).body(body).when().post("/webhooks/git").then();
    }

    static ValidatableResponse github(String event, String delivery, byte[] body) {
        return post(Map.of("X-GitHub-Event", event, "X-GitHub-Delivery", delivery,
                "X-Hub-Signature-256", Signatures.sign(SECRET, body)), body);
    }

    static String id() {
        return UUID.randomUUID().toString();
    }

    @Test
    void routesASignedGitHubPushWithTheNormalisedRepositoryAndBranch() {
        String delivery = id();
        github("push", delivery, GitFixtures.bytes("github-push.json")).statusCode(200)
                .body("endpoint", equalTo("git"))
                .body("repository", equalTo("github.com/Acme/shop-config"))
                .body("branch", equalTo("main"))
                .body("delivery", equalTo(delivery))
                .body("reply.reason", equalTo("Recorded"));
        assertEquals(1, router.pushed().size());
        GitPush push = router.pushed().get(0);
        assertEquals(Set.of("github.com/Acme/shop-config"), push.repositoryUrls());
        assertEquals("main", push.branch());
    }

    @Test
    void refusesAWrongSignatureOrNoCredentialAndRoutesNothing() {
        byte[] body = GitFixtures.bytes("github-push.json");
        post(Map.of("X-GitHub-Event", "push", "X-Hub-Signature-256", Signatures.sign("another-secret", body)), body)
                .statusCode(401).body("error", equalTo("Unauthorized"))
                .body("message", containsString("X-Hub-Signature-256"));
        post(Map.of("X-GitHub-Event", "push"), body).statusCode(401)
                .body("message", containsString("rekon.webhooks.git.hmac-secret"));
        post(Map.of("X-Gitlab-Event", "Push Hook", "X-Gitlab-Token", "nope"), GitFixtures.bytes("gitlab-push.json"))
                .statusCode(401).body("message", containsString("X-Gitlab-Token"));
        assertEquals(0, router.pushed().size());
    }

    @Test
    void acceptsGiteasOwnSignatureHeader() {
        byte[] body = GitFixtures.bytes("gitea-push.json");
        post(Map.of("X-Gitea-Event", "push", "X-GitHub-Event", "push", "X-Gitea-Delivery", id(),
                "X-Gitea-Signature", Signatures.sign(SECRET, body).substring("sha256=".length())), body)
                .statusCode(200).body("repository", equalTo("git.example.com:3000/platform/cluster-state"))
                .body("branch", equalTo("production"));
        assertEquals(Set.of("git.example.com:3000/platform/cluster-state", "git.example.com/platform/cluster-state"),
                router.pushed().get(0).repositoryUrls());
    }

    @Test
    void acceptsGitLabsTokenAndBitbucketsSignature() {
        post(Map.of("X-Gitlab-Event", "Push Hook", "X-Gitlab-Event-UUID", id(), "X-Gitlab-Token", "git-test-token"),
                GitFixtures.bytes("gitlab-push.json")).statusCode(200)
                .body("repository", equalTo("gitlab.example.com/infra/deployments")).body("branch", equalTo("main"));
        byte[] bitbucket = GitFixtures.bytes("bitbucket-cloud-push.json");
        post(Map.of("X-Event-Key", "repo:push", "X-Request-UUID", id(), "X-Hook-UUID", "the-hook",
                "X-Hub-Signature", Signatures.sign(SECRET, bitbucket)), bitbucket).statusCode(200)
                .body("repository", equalTo("bitbucket.org/northwind/storefront-state")).body("branch", equalTo("release"));
        assertEquals(List.of("main", "release"), router.pushed().stream().map(GitPush::branch).toList());
    }

    @Test
    void answersPingsWithPong() {
        github("ping", id(), GitFixtures.bytes("github-ping.json")).statusCode(200)
                .body("reply.reason", equalTo(GitWebhookRoutes.PONG)).body("reply.message", containsString("pong"));
        byte[] test = "{\"test\": true}".getBytes(StandardCharsets.UTF_8);
        post(Map.of("X-Event-Key", "diagnostics:ping", "X-Hub-Signature", Signatures.sign(SECRET, test)), test)
                .statusCode(200).body("reply.reason", equalTo(GitWebhookRoutes.PONG));
        assertEquals(0, router.pushed().size());
    }

    @Test
    void aDeletedBranchOrATagTriggersNothing() {
        post(Map.of("X-Gitlab-Event", "Push Hook", "X-Gitlab-Event-UUID", id(), "X-Gitlab-Token", "git-test-token"),
                GitFixtures.bytes("gitlab-branch-delete.json")).statusCode(200)
                .body("branch", equalTo("feature/old-queue"))
                .body("reply.reason", equalTo(GitWebhookRoutes.BRANCH_DELETED))
                .body("reply.message", containsString("nothing is deleted"));
        byte[] tag = GitFixtures.json("github-push.json").put("ref", "refs/tags/v1.2.0").toString()
                .getBytes(StandardCharsets.UTF_8);
        github("push", id(), tag).statusCode(200).body("branch", nullValue())
                .body("reply.reason", equalTo(GitWebhookRoutes.NOT_A_BRANCH)).body("reply.ref", equalTo("refs/tags/v1.2.0"));
        assertEquals(0, router.pushed().size());
    }

    @Test
    void routesARedeliveryOnce() {
        String delivery = id();
        byte[] body = GitFixtures.bytes("github-push.json");
        github("push", delivery, body).statusCode(200).body("reply.reason", equalTo("Recorded"));
        github("push", delivery, body).statusCode(200).body("reply.reason", equalTo(PushDispatcher.DUPLICATE));
        assertEquals(1, router.pushed().size());
    }

    @Test
    void aTransientFailureAnswers503AndTheRedeliveryIsRouted() {
        String delivery = id();
        byte[] body = GitFixtures.bytes("github-push.json");
        router.failNext();
        github("push", delivery, body).statusCode(503).body("error", equalTo("TransientFailure"))
                .body("message", containsString("redeliver"));
        assertEquals(0, router.pushed().size());
        github("push", delivery, body).statusCode(200).body("reply.reason", equalTo("Recorded"));
        assertEquals(1, router.pushed().size());
    }

    @Test
    void acceptsOtherEventsWithoutDoingAnything() {
        byte[] body = "{\"action\": \"opened\"}".getBytes(StandardCharsets.UTF_8);
        github("issues", id(), body).statusCode(202).body("reply.reason", equalTo(GitWebhookRoutes.NOT_HANDLED))
                .body("reply.message", containsString("Push Hook"));
        post(Map.of("X-Gitlab-Event", "Merge Request Hook", "X-Gitlab-Token", "git-test-token"), body).statusCode(202);
        assertEquals(0, router.pushed().size());
    }

    @Test
    void refusesMalformedRequestsInOrder() {
        byte[] large = new byte[1048577];
        post(Map.of("X-GitHub-Event", "push"), large).statusCode(413)
                .body("message", containsString("rekon.webhooks.max-body-bytes"));
        byte[] notJson = "ref=refs/heads/main".getBytes(StandardCharsets.UTF_8);
        given().contentType("application/x-www-form-urlencoded").header("X-GitHub-Event", "push")
                .header("X-Hub-Signature-256", Signatures.sign(SECRET, notJson)).body("ref=refs/heads/main")
                .when().post("/webhooks/git").then().statusCode(415).body("message", containsString("application/json"));
        github("push", id(), notJson).statusCode(400).body("error", equalTo("InvalidEvent"))
                .body("message", containsString("not valid JSON"));
        github("push", id(), "[]".getBytes(StandardCharsets.UTF_8)).statusCode(400)
                .body("message", equalTo("the body must be a JSON object"));
        byte[] body = GitFixtures.bytes("github-push.json");
        post(Map.of("X-Hub-Signature-256", Signatures.sign(SECRET, body)), body).statusCode(400)
                .body("error", equalTo("NoEventType")).body("message", containsString("X-GitHub-Event"));
        assertEquals(0, router.pushed().size());
    }

    @Test
    void theWebhooksCatchAllStillAnswersOtherPaths() {
        given().contentType("application/json").body("{}").when().post("/webhooks/gitea").then().statusCode(404)
                .body("error", equalTo("NoWebhookEndpoint")).body("message", containsString("/webhooks/git"));
        given().when().get("/webhooks/git").then().statusCode(405).header("Allow", "POST");
    }
}
