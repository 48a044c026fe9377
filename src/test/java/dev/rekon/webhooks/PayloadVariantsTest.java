package dev.rekon.webhooks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.core.InvalidEventException;

/**
 * Every documented payload variant per format, written from each registry's published webhook documentation:
 * what is read as a push (registry, repository, tag, digest), what is ignored with which reason, and what is
 * refused with which message.
 */
class PayloadVariantsTest {

    static final String GHCR = ParsersTest.GHCR;
    static final String WORKER = "sha256:87eba76e7f3164534045ba922e7770fb58bbd14ad732bbf5ba6f11cc56989e6e";
    static final Map<String, String> GITHUB = Map.of("x-github-event", "package", "x-github-delivery", "d");

    /** A recorded payload with one change made to it. */
    static JsonNode variant(String file, Consumer<ObjectNode> change) {
        ObjectNode node = (ObjectNode) Recorded.json(file);
        change.accept(node);
        return node;
    }

    static ObjectNode at(ObjectNode node, String... path) {
        ObjectNode n = node;
        for (String step : path) {
            n = (ObjectNode) n.get(step);
        }
        return n;
    }

    static ImagePushed push(String registry, String repository, String tag, String digest) {
        return new ImagePushed(registry, repository, tag, digest, null);
    }

    static Stream<Arguments> variants() {
        return Stream.of(
                Arguments.of("Harbor 2.x PUSH_ARTIFACT", WebhookFormat.HARBOR, Map.of(), Recorded.json("harbor/push-artifact.json"),
                        List.of(push("harbor.example.com", "library/busybox", "1.36.0", ParsersTest.BUSYBOX)), List.of()),
                Arguments.of("Harbor 1.x pushImage", WebhookFormat.HARBOR, Map.of(), Recorded.json("harbor/push-image-v1.json"),
                        List.of(push("harbor.example.com", "team-b/worker", "v1.0", WORKER)), List.of()),
                Arguments.of("Harbor 1.x without repo_full_name", WebhookFormat.HARBOR, Map.of(),
                        variant("harbor/push-image-v1.json", n -> at(n, "event_data", "repository").remove("repo_full_name")),
                        List.of(push("harbor.example.com", "team-b/worker", "v1.0", WORKER)), List.of()),
                Arguments.of("Harbor scan result", WebhookFormat.HARBOR, Map.of(),
                        variant("harbor/push-artifact.json", n -> n.put("type", "SCANNING_COMPLETED")), List.of(), List.of("NotAPush")),
                Arguments.of("Harbor resource without tag and digest, its resource_url tagged", WebhookFormat.HARBOR, Map.of(),
                        variant("harbor/push-image-v1.json", n -> ((ObjectNode) n.at("/event_data/resources/0")).remove(List.of("tag", "digest"))),
                        List.of(push("harbor.example.com", "team-b/worker", "v1.0", null)
                                .withReadFrom("tag from resource_url (the resource has no 'tag')")), List.of()),
                Arguments.of("Harbor resource with neither tag nor digest", WebhookFormat.HARBOR, Map.of(),
                        variant("harbor/push-image-v1.json", n -> ((ObjectNode) n.at("/event_data/resources/0")).remove(List.of("tag", "digest"))
                                .put("resource_url", "harbor.example.com/team-b/worker")),
                        List.of(), List.of(Delivery.NO_TAG_OR_DIGEST)),
                Arguments.of("Harbor CloudEvents", WebhookFormat.HARBOR, Map.of(), Recorded.json("harbor-cloudevents/artifact-pushed.json"),
                        List.of(push("harbor.example.com", "library/busybox", "1.36.0", ParsersTest.BUSYBOX)), List.of()),
                Arguments.of("GitHub package, tag in container_metadata", WebhookFormat.GITHUB, GITHUB,
                        Recorded.json("github/package-published.json"), List.of(push("ghcr.io", "acme/shop-api", "2.0.3", GHCR)), List.of()),
                Arguments.of("GitHub registry_package", WebhookFormat.GITHUB, Map.of("x-github-event", "registry_package"),
                        Recorded.json("github/registry_package-published.json"), List.of(push("ghcr.io", "acme/shop-api", "2.0.3", GHCR)), List.of()),
                Arguments.of("GitHub package, tag only in package_version.version", WebhookFormat.GITHUB, GITHUB,
                        variant("github/package-published.json", n -> {
                            ObjectNode v = at(n, "package", "package_version");
                            at(v, "container_metadata").remove("tag");
                            v.put("version", "2.0.4");
                        }), List.of(push("ghcr.io", "acme/shop-api", "2.0.4", GHCR)
                                .withReadFrom("tag from package_version.version (no container_metadata.tag.name)")), List.of()),
                Arguments.of("GitHub package, untagged version", WebhookFormat.GITHUB, GITHUB,
                        variant("github/package-published.json", n -> at(n, "package", "package_version", "container_metadata", "tag")
                                .put("name", "")), List.of(), List.of(GitHubParser.UNTAGGED)),
                Arguments.of("GitHub package without package_url", WebhookFormat.GITHUB, GITHUB,
                        variant("github/package-published.json", n -> at(n, "package", "package_version").remove("package_url")),
                        List.of(push("ghcr.io", "acme/shop-api", "2.0.3", GHCR).withReadFrom(
                                "repository from package.owner.login and package.name (no package_version.package_url)")), List.of()),
                Arguments.of("GitHub npm package", WebhookFormat.GITHUB, GITHUB, Recorded.json("github/package-published-npm.json"),
                        List.of(), List.of("NotAContainerPackage")),
                Arguments.of("GitHub package updated", WebhookFormat.GITHUB, GITHUB,
                        variant("github/package-published.json", n -> n.put("action", "updated")), List.of(), List.of("NotPublished")),
                Arguments.of("GitHub ping", WebhookFormat.GITHUB, Map.of("x-github-event", "ping"), Recorded.json("github/package-published.json"),
                        List.of(), List.of("Ping")),
                Arguments.of("Docker Hub repo_name", WebhookFormat.DOCKERHUB, Map.of(), Recorded.json("dockerhub/push.json"),
                        List.of(push("docker.io", "acme/web", "v1.4.2", null)), List.of()),
                Arguments.of("Docker Hub namespace and name", WebhookFormat.DOCKERHUB, Map.of(),
                        variant("dockerhub/push.json", n -> at(n, "repository").remove("repo_name")),
                        List.of(push("docker.io", "acme/web", "v1.4.2", null)), List.of()),
                Arguments.of("Docker Hub official image, name only", WebhookFormat.DOCKERHUB, Map.of(),
                        variant("dockerhub/push.json", n -> at(n, "repository").removeAll().put("name", "nginx")),
                        List.of(push("docker.io", "library/nginx", "v1.4.2", null)), List.of()),
                Arguments.of("Quay docker_url", WebhookFormat.QUAY, Map.of(), Recorded.json("quay/repository-push.json"),
                        List.of(push("quay.io", "acme/api", "latest", null), push("quay.io", "acme/api", "3.1.0", null)), List.of()),
                Arguments.of("Quay without docker_url", WebhookFormat.QUAY, Map.of(),
                        variant("quay/repository-push.json", n -> n.remove("docker_url")),
                        List.of(push("quay.io", "acme/api", "latest", null), push("quay.io", "acme/api", "3.1.0", null)), List.of()),
                Arguments.of("Quay on its own host", WebhookFormat.QUAY, Map.of(),
                        variant("quay/repository-push.json", n -> n.put("docker_url", "quay.internal.example/acme/api")),
                        List.of(push("quay.internal.example", "acme/api", "latest", null),
                                push("quay.internal.example", "acme/api", "3.1.0", null)), List.of()),
                Arguments.of("Quay without tags", WebhookFormat.QUAY, Map.of(),
                        variant("quay/repository-push.json", n -> n.putArray("updated_tags")), List.of(), List.of("NoTags")),
                Arguments.of("distribution envelope of several events", WebhookFormat.DISTRIBUTION, Map.of(),
                        Recorded.json("distribution/several-events.json"),
                        List.of(push("registry.example.com", "apps/api", "3.2.0", "sha256:" + "2".repeat(64)),
                                push("registry.example.com:5000", "apps/worker", "0.9.1", "sha256:" + "4".repeat(64))),
                        List.of("NotAManifestPush", "NotAPush", "NotAPush")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("variants")
    void readsEveryDocumentedVariant(String name, WebhookFormat format, Map<String, String> headers, JsonNode body,
            List<ImagePushed> pushes, List<String> ignored) {
        Delivery d = format.parser().parse(body, headers);
        assertEquals(pushes, d.pushes().stream().map(p -> p.withEventId(null)).toList());
        assertEquals(ignored, d.ignored().stream().map(Delivery.Ignored::reason).toList());
    }

    static Stream<Arguments> refusals() {
        return Stream.of(
                Arguments.of(WebhookFormat.DOCKERHUB, variant("dockerhub/push.json", n -> at(n, "repository").removeAll()),
                        "Docker Hub webhook: repository.repo_name (or namespace and name): repository 'null' is not a valid image repository name"),
                Arguments.of(WebhookFormat.HARBOR, variant("harbor/push-image-v1.json", n -> ((ObjectNode) n.at("/event_data/resources/0"))
                        .remove("resource_url")), "Harbor pushImage: every resource needs a 'resource_url' (host/project/repository:tag)"),
                Arguments.of(WebhookFormat.GITHUB, variant("github/package-published.json", n -> at(n, "package", "package_version")
                        .put("package_url", "ghcr.io/Acme/Shop API:1")), "GitHub package event: repository 'acme/shop api' is not a "
                        + "valid image repository name (lower-case path components)"),
                Arguments.of(WebhookFormat.QUAY, variant("quay/repository-push.json", n -> n.put("updated_tags", "latest")),
                        "Quay repository push: 'updated_tags' must be a list of tag names"));
    }

    @ParameterizedTest(name = "{0}: {2}")
    @MethodSource("refusals")
    void refusesWithWhatToFix(WebhookFormat format, JsonNode body, String message) {
        assertEquals(message, assertThrows(InvalidEventException.class, () -> format.parser().parse(body, GITHUB)).getMessage());
    }

    @Test
    void derivedIdsTellDifferentPushesApart() {
        Map<String, String> noDelivery = Map.of("x-github-event", "package");
        JsonNode first = Recorded.json("github/package-published.json");
        JsonNode other = variant("github/package-published.json", n -> at(n, "package", "package_version", "container_metadata", "tag")
                .put("name", "2.0.4"));
        String a = new GitHubParser().parse(first, noDelivery).pushes().get(0).eventId();
        assertEquals(a, new GitHubParser().parse(first, noDelivery).pushes().get(0).eventId());
        assertNotEquals(a, new GitHubParser().parse(other, noDelivery).pushes().get(0).eventId());

        JsonNode harbor = Recorded.json("harbor/push-image-v1.json");
        JsonNode otherTag = variant("harbor/push-image-v1.json", n -> ((ObjectNode) n.at("/event_data/resources/0")).put("tag", "v1.1"));
        assertNotEquals(new HarborParser().parse(harbor, Map.of()).pushes().get(0).eventId(),
                new HarborParser().parse(otherTag, Map.of()).pushes().get(0).eventId());
    }
}
