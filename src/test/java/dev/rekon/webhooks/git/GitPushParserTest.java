package dev.rekon.webhooks.git;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.core.InvalidEventException;

class GitPushParserTest {

    static final GitPushParser PARSER = new GitPushParser();
    static final String ZEROS = "0000000000000000000000000000000000000000";

    static ObjectNode github(String ref, boolean deleted) {
        ObjectNode body = GitFixtures.json("github-push.json");
        body.put("ref", ref).put("deleted", deleted);
        return body;
    }

    static final String BITBUCKET_SERVER = """
            {"eventKey": "repo:refs_changed", "date": "2024-05-14T13:00:00+0000",
             "actor": {"name": "admin", "displayName": "Administrator"},
             "repository": {"slug": "cluster", "name": "cluster", "project": {"key": "OPS", "name": "Operations"},
               "links": {"clone": [{"href": "ssh://git@bitbucket.example.com:7999/ops/cluster.git", "name": "ssh"},
                                   {"href": "https://bitbucket.example.com/scm/ops/cluster.git", "name": "http"}],
                         "self": [{"href": "https://bitbucket.example.com/projects/OPS/repos/cluster/browse"}]}},
             "changes": [
               {"ref": {"id": "refs/heads/main", "displayId": "main", "type": "BRANCH"}, "refId": "refs/heads/main",
                "fromHash": "ecddabb624f6f5ba43816f5926e580a5f680a932", "toHash": "178864a7d521b6f5e720b386b2c2b0ef8563e0dc",
                "type": "UPDATE"},
               {"ref": {"id": "refs/heads/old", "displayId": "old", "type": "BRANCH"}, "refId": "refs/heads/old",
                "fromHash": "ecddabb624f6f5ba43816f5926e580a5f680a932", "toHash": "0000000000000000000000000000000000000000",
                "type": "DELETE"},
               {"ref": {"id": "refs/tags/v1.0", "displayId": "v1.0", "type": "TAG"}, "refId": "refs/tags/v1.0",
                "fromHash": "0000000000000000000000000000000000000000", "toHash": "178864a7d521b6f5e720b386b2c2b0ef8563e0dc",
                "type": "ADD"}]}""";

    static Stream<Arguments> payloads() {
        Set<String> github = Set.of("github.com/Acme/shop-config");
        return Stream.of(
                Arguments.of("GitHub push", "x-github-event", "push", "x-github-delivery", GitFixtures.json("github-push.json"),
                        List.of(new GitPush("d1", github, "main", false, "0d1a26e67d8f5eaf1f6ba5c57fc3c7d91ac0fd1c")), List.of()),
                Arguments.of("GitHub branch deleted", "x-github-event", "push", "x-github-delivery",
                        github("refs/heads/feature/x", true),
                        List.of(new GitPush("d1", github, "feature/x", true, "0d1a26e67d8f5eaf1f6ba5c57fc3c7d91ac0fd1c")),
                        List.of()),
                Arguments.of("GitHub tag", "x-github-event", "push", "x-github-delivery", github("refs/tags/v1.2.0", false),
                        List.of(), List.of("refs/tags/v1.2.0")),
                Arguments.of("Gitea push", "x-gitea-event", "push", "x-gitea-delivery", GitFixtures.json("gitea-push.json"),
                        List.of(new GitPush("d1", Set.of("git.example.com:3000/platform/cluster-state",
                                "git.example.com/platform/cluster-state"), "production", false,
                                "bffeb74224043ba2feb48d137756c8a9331c449a")), List.of()),
                Arguments.of("Forgejo push", "x-forgejo-event", "push", "x-forgejo-delivery", GitFixtures.json("gitea-push.json"),
                        List.of(new GitPush("d1", Set.of("git.example.com:3000/platform/cluster-state",
                                "git.example.com/platform/cluster-state"), "production", false,
                                "bffeb74224043ba2feb48d137756c8a9331c449a")), List.of()),
                Arguments.of("GitLab push", "x-gitlab-event", "Push Hook", "x-gitlab-event-uuid", GitFixtures.json("gitlab-push.json"),
                        List.of(new GitPush("d1", Set.of("gitlab.example.com/infra/deployments"), "main", false,
                                "da1560886d4f094c3e6c9ef40349f7d38b5d27d7")), List.of()),
                Arguments.of("GitLab branch deleted", "x-gitlab-event", "Push Hook", "x-gitlab-event-uuid",
                        GitFixtures.json("gitlab-branch-delete.json"), List.of(new GitPush("d1",
                                Set.of("gitlab.example.com/infra/deployments"), "feature/old-queue", true, ZEROS)), List.of()),
                Arguments.of("Bitbucket Cloud push", "x-event-key", "repo:push", "x-request-uuid",
                        GitFixtures.json("bitbucket-cloud-push.json"), List.of(new GitPush("d1",
                                Set.of("bitbucket.org/northwind/storefront-state"), "release", false,
                                "709d658dc5b6d6afcd46049c2f332ee3f515a67d")), List.of()),
                Arguments.of("Bitbucket Server refs changed", "x-event-key", "repo:refs_changed", "x-request-id",
                        json(BITBUCKET_SERVER), List.of(
                                new GitPush("d1#refs/heads/main", Set.of("bitbucket.example.com/ops/cluster",
                                        "bitbucket.example.com/scm/ops/cluster",
                                        "bitbucket.example.com/projects/OPS/repos/cluster/browse"), "main", false,
                                        "178864a7d521b6f5e720b386b2c2b0ef8563e0dc"),
                                new GitPush("d1#refs/heads/old", Set.of("bitbucket.example.com/ops/cluster",
                                        "bitbucket.example.com/scm/ops/cluster",
                                        "bitbucket.example.com/projects/OPS/repos/cluster/browse"), "old", true, ZEROS)),
                        List.of("refs/tags/v1.0")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("payloads")
    void readsEveryHostsPush(String name, String eventHeader, String type, String deliveryHeader, JsonNode body,
            List<GitPush> pushes, List<String> otherRefs) {
        Map<String, String> headers = Map.of(eventHeader, type, deliveryHeader, "d1");
        GitPushParser.Parsed parsed = PARSER.parse(GitEvent.of(headers).orElseThrow(), body, headers, new byte[0]);
        assertEquals(pushes, parsed.pushes());
        assertEquals(otherRefs, parsed.otherRefs());
    }

    @Test
    void namesTheRepositoryByTheCloneUrlReadFirst() {
        Map<String, String> headers = Map.of("x-gitea-event", "push");
        GitPush push = PARSER.parse(GitEvent.of(headers).orElseThrow(), GitFixtures.json("gitea-push.json"), headers,
                new byte[0]).pushes().get(0);
        assertEquals("git.example.com:3000/platform/cluster-state", push.repository());
        assertTrue(push.names("ssh://git@git.example.com:2222/platform/cluster-state.git"));
        assertTrue(push.names("https://git.example.com:3000/platform/cluster-state/"));
        assertTrue(!push.names("https://git.example.com:3000/platform/other"));
    }

    @Test
    void aBitbucketCloudBranchClosedIsDeletedAndATagIsNoBranch() {
        ObjectNode body = GitFixtures.json("bitbucket-cloud-push.json");
        ObjectNode change = (ObjectNode) body.at("/push/changes/0");
        change.putNull("new");
        change.put("closed", true);
        Map<String, String> headers = Map.of("x-event-key", "repo:push");
        GitPushParser.Parsed parsed = PARSER.parse(GitEvent.of(headers).orElseThrow(), body, headers, new byte[0]);
        assertTrue(parsed.pushes().get(0).deleted());
        change.set("new", body.at("/push/changes/0/old").deepCopy());
        ((ObjectNode) change.get("new")).put("type", "tag").put("name", "v3");
        change.put("closed", false);
        parsed = PARSER.parse(GitEvent.of(headers).orElseThrow(), body, headers, new byte[0]);
        assertEquals(List.of("refs/tags/v3"), parsed.otherRefs());
    }

    @Test
    void identifiesADeliveryWithoutAnIdByItsBody() {
        Map<String, String> headers = Map.of("x-github-event", "push");
        byte[] raw = GitFixtures.bytes("github-push.json");
        GitEvent event = GitEvent.of(headers).orElseThrow();
        String id = PARSER.parse(event, GitFixtures.json("github-push.json"), headers, raw).pushes().get(0).deliveryId();
        assertEquals(id, PARSER.parse(event, GitFixtures.json("github-push.json"), headers, raw).pushes().get(0).deliveryId());
        assertTrue(id.startsWith("sha256:"), id);
        String other = PARSER.parse(event, GitFixtures.json("github-push.json"), headers,
                "x".getBytes(StandardCharsets.UTF_8)).pushes().get(0).deliveryId();
        assertTrue(!id.equals(other));
    }

    @Test
    void giteaIsReadAsGiteaThoughItAlsoSendsTheGitHubHeader() {
        assertEquals(GitEvent.Host.GITEA, GitEvent.of(Map.of("x-github-event", "push", "x-gitea-event", "push"))
                .orElseThrow().host());
        assertEquals(GitEvent.Kind.OTHER, GitEvent.of(Map.of("x-github-event", "issues")).orElseThrow().kind());
        assertEquals(GitEvent.Kind.PING, GitEvent.of(Map.of("x-event-key", "diagnostics:ping")).orElseThrow().kind());
        assertTrue(GitEvent.of(Map.of("x-hook-uuid", "h")).isEmpty());
    }

    @Test
    void refusesAPushWithoutRefOrRepository() {
        Map<String, String> headers = Map.of("x-github-event", "push");
        GitEvent event = GitEvent.of(headers).orElseThrow();
        ObjectNode noRef = GitFixtures.json("github-push.json");
        noRef.remove("ref");
        assertTrue(assertThrows(InvalidEventException.class, () -> PARSER.parse(event, noRef, headers, new byte[0]))
                .getMessage().contains("'ref'"));
        ObjectNode noRepo = GitFixtures.json("github-push.json");
        noRepo.remove("repository");
        assertTrue(assertThrows(InvalidEventException.class, () -> PARSER.parse(event, noRepo, headers, new byte[0]))
                .getMessage().contains("names no repository URL"));
    }

    static JsonNode json(String text) {
        try {
            return GitFixtures.JSON.readTree(text);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
