package dev.rekon.webhooks;

import static dev.rekon.webhooks.PayloadVariantsTest.at;
import static dev.rekon.webhooks.PayloadVariantsTest.push;
import static dev.rekon.webhooks.PayloadVariantsTest.variant;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.core.InvalidEventException;

/**
 * The payload variants of Keel's and Argo CD Image Updater's webhook test suites, each written anew under
 * {@code webhooks/peers/}: read as the peer asserts (with {@code readFrom} naming every field that is not the
 * documented one), or differently on purpose, as docs/webhooks.md says under "Payloads from Keel and Argo CD Image
 * Updater". The name of each case says which peer's variant it is.
 */
class PeerVariantsTest {

    static final Map<String, String> PACKAGE = Map.of("x-github-event", "package", "x-github-delivery", "p");
    static final String D1 = "sha256:" + "5e".repeat(32);
    static final String D2 = "sha256:" + "c4".repeat(32);
    static final String D3 = "sha256:" + "07".repeat(32);
    static final String OWNER_AND_NAME = "repository from package.owner.login and package.name (no package_version.package_url)";

    static JsonNode peer(String file) {
        return Recorded.json("peers/" + file);
    }

    static JsonNode ghcr(java.util.function.Consumer<ObjectNode> change) {
        return variant("peers/ghcr-published-minimal.json", change);
    }

    static Stream<Arguments> routed() {
        ImagePushed beaconUi = push("ghcr.io", "lumen/beacon-ui", "v3.0.1", null).withReadFrom(OWNER_AND_NAME);
        return Stream.of(
                Arguments.of("Keel registry_package, older shape", WebhookFormat.GITHUB, Map.of("x-github-event", "registry_package"),
                        peer("github-registry-package-legacy.json"), List.of(push("ghcr.io", "lumen/beacon", "4.5.6", null).withReadFrom(
                                "repository from repository.full_name (no package_version.package_url); "
                                + "tag from package_version.version (no container_metadata.tag.name)"))),
                Arguments.of("Keel package, action create, namespace", WebhookFormat.GITHUB, PACKAGE, peer("github-package-create.json"),
                        List.of(push("ghcr.io", "lumen/beacon-api", "7.1.0", D1).withReadFrom("action 'create' taken as 'published'; "
                                + "repository from package.namespace and package.name (no package_version.package_url)"))),
                Arguments.of("Argo package, container", WebhookFormat.GITHUB, PACKAGE, peer("ghcr-published-minimal.json"), List.of(beaconUi)),
                Arguments.of("Argo package, CONTAINER", WebhookFormat.GITHUB, PACKAGE,
                        ghcr(n -> at(n, "package").put("package_type", "CONTAINER")), List.of(beaconUi)),
                Arguments.of("Argo package, Container", WebhookFormat.GITHUB, PACKAGE,
                        ghcr(n -> at(n, "package").put("package_type", "Container")), List.of(beaconUi)),
                Arguments.of("Argo package, latest", WebhookFormat.GITHUB, PACKAGE, ghcr(n -> {
                    at(n, "package", "package_version").put("name", "latest");
                    at(n, "package", "package_version", "container_metadata", "tag").put("name", "latest");
                }), List.of(push("ghcr.io", "lumen/beacon-ui", "latest", null).withReadFrom(OWNER_AND_NAME))),
                Arguments.of("Argo package, mixed-case owner and name", WebhookFormat.GITHUB, PACKAGE, ghcr(n -> {
                    at(n, "package").put("name", "Beacon-UI");
                    at(n, "package", "owner").put("login", "Lumen");
                }), List.of(beaconUi)),
                Arguments.of("Argo package, tag only in package_version.name", WebhookFormat.GITHUB, PACKAGE,
                        ghcr(n -> at(n, "package", "package_version", "container_metadata").removeAll()),
                        List.of(beaconUi.withReadFrom(OWNER_AND_NAME + "; tag from package_version.name (no container_metadata.tag.name)"))),
                Arguments.of("Keel Harbor, resource_url's tag disagrees", WebhookFormat.HARBOR, Map.of(),
                        peer("harbor-push-artifact-tag-disagrees.json"), List.of(push("mirror.lumen.example", "lumen/beacon", "latest", D2)
                                .withReadFrom("tag from the resource's 'tag'; resource_url says '4.5.6'"))),
                Arguments.of("Keel Harbor, resource_url without host or tag", WebhookFormat.HARBOR, Map.of(),
                        peer("harbor-push-image-no-host.json"), List.of(push("docker.io", "lumen/beacon", "4.5.6", D2)
                                .withReadFrom("registry docker.io: resource_url 'lumen/beacon' names no registry host"))),
                Arguments.of("Argo Harbor, resource_url with a scheme", WebhookFormat.HARBOR, Map.of(),
                        peer("harbor-artifact-scheme-url.json"), List.of(push("harbor.lumen.example", "apps/beacon", "v2.2.0", D3))),
                Arguments.of("Argo Harbor, one-component repo_full_name", WebhookFormat.HARBOR, Map.of(),
                        peer("harbor-artifact-one-component.json"), List.of(push("harbor.lumen.example", "beacon", "edge", D3))),
                Arguments.of("Argo Harbor, namespace and name", WebhookFormat.HARBOR, Map.of(),
                        peer("harbor-artifact-namespace-name.json"), List.of(push("registry.lumen.example", "tools/beacon", "latest", D3))),
                Arguments.of("Keel registry notification", WebhookFormat.DISTRIBUTION, Map.of(), peer("distribution-push.json"),
                        List.of(push("registry.lumen.example", "team/beacon", "2.4.0", "sha256:" + "9a".repeat(32)))),
                Arguments.of("Keel and Argo Docker Hub, repo_name", WebhookFormat.DOCKERHUB, Map.of(), peer("dockerhub-minimal.json"),
                        List.of(push("docker.io", "lumen/beacon", "v1.1.0", null))),
                Arguments.of("Argo Docker Hub, namespace and name", WebhookFormat.DOCKERHUB, Map.of(),
                        variant("peers/dockerhub-minimal.json", n -> at(n, "repository").remove("repo_name")),
                        List.of(push("docker.io", "lumen/beacon", "v1.1.0", null))),
                Arguments.of("Argo Docker Hub, name only", WebhookFormat.DOCKERHUB, Map.of(),
                        variant("peers/dockerhub-minimal.json", n -> at(n, "repository").removeAll().put("name", "beacon")),
                        List.of(push("docker.io", "library/beacon", "v1.1.0", null))),
                Arguments.of("Keel and Argo Quay, quay.io", WebhookFormat.QUAY, Map.of(), peer("quay-minimal.json"),
                        List.of(push("quay.io", "lumen/beacon", "latest", null))),
                Arguments.of("Argo Quay, own host", WebhookFormat.QUAY, Map.of(),
                        variant("peers/quay-minimal.json", n -> n.put("docker_url", "quay.ops.lumen.example/lumen/beacon")),
                        List.of(push("quay.ops.lumen.example", "lumen/beacon", "latest", null))),
                Arguments.of("Argo Quay, docker_url with a scheme", WebhookFormat.QUAY, Map.of(),
                        variant("peers/quay-minimal.json", n -> n.put("docker_url", "https://quay.corp.lumen.example/lumen/beacon")),
                        List.of(push("quay.corp.lumen.example", "lumen/beacon", "latest", null))),
                Arguments.of("Argo Quay, empty docker_url", WebhookFormat.QUAY, Map.of(),
                        variant("peers/quay-minimal.json", n -> n.put("docker_url", "")), List.of(push("quay.io", "lumen/beacon", "latest", null))),
                Arguments.of("Argo Quay, several tags: every one", WebhookFormat.QUAY, Map.of(),
                        variant("peers/quay-minimal.json", n -> n.putArray("updated_tags").add("latest").add("v1.0")),
                        List.of(push("quay.io", "lumen/beacon", "latest", null), push("quay.io", "lumen/beacon", "v1.0", null))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("routed")
    void routesWhatThePeerRoutes(String name, WebhookFormat format, Map<String, String> headers, JsonNode body,
            List<ImagePushed> pushes) {
        Delivery d = format.parser().parse(body, headers);
        assertEquals(pushes, d.pushes().stream().map(p -> p.withEventId(null)).toList());
        assertEquals(List.of(), d.ignored());
    }

    static Stream<Arguments> ignored() {
        return Stream.of(
                Arguments.of("Argo package, updated", WebhookFormat.GITHUB, ghcr(n -> n.put("action", "updated")), "NotPublished"),
                Arguments.of("Argo package, npm", WebhookFormat.GITHUB, ghcr(n -> at(n, "package").put("package_type", "npm")),
                        "NotAContainerPackage"),
                Arguments.of("Argo package, no tag anywhere", WebhookFormat.GITHUB,
                        ghcr(n -> at(n, "package", "package_version").removeAll()), GitHubParser.UNTAGGED),
                Arguments.of("Argo package, empty payload", WebhookFormat.GITHUB, Recorded.JSON.createObjectNode(), "NotPublished"),
                Arguments.of("Argo Harbor, DELETE_ARTIFACT", WebhookFormat.HARBOR,
                        variant("peers/harbor-artifact-scheme-url.json", n -> n.put("type", "DELETE_ARTIFACT")), "NotAPush"),
                Arguments.of("Argo Harbor, empty payload", WebhookFormat.HARBOR, Recorded.JSON.createObjectNode(), "NotAPush"),
                Arguments.of("Argo Quay, no tags", WebhookFormat.QUAY,
                        variant("peers/quay-minimal.json", n -> n.putArray("updated_tags")), "NoTags"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("ignored")
    void ignoresWhatThePeerDoesNotRoute(String name, WebhookFormat format, JsonNode body, String reason) {
        Delivery d = format.parser().parse(body, PACKAGE);
        assertEquals(List.of(), d.pushes());
        assertEquals(List.of(reason), d.ignored().stream().map(Delivery.Ignored::reason).toList());
    }

    @Test
    void ignoresOtherGitHubEventsWhereArgoRefusesThem() {
        for (Map<String, String> headers : List.of(Map.of("x-github-event", "push"), Map.<String, String>of())) {
            Delivery d = new GitHubParser().parse(peer("ghcr-published-minimal.json"), headers);
            assertEquals(List.of("NotAPackageEvent"), d.ignored().stream().map(Delivery.Ignored::reason).toList());
        }
    }

    static Stream<Arguments> refused() {
        return Stream.of(
                Arguments.of("Argo package, no name", WebhookFormat.GITHUB, ghcr(n -> at(n, "package").remove("name")),
                        "repository 'null' is not a valid image repository name"),
                Arguments.of("Argo package, no owner", WebhookFormat.GITHUB, ghcr(n -> at(n, "package").remove("owner")),
                        "repository 'null' is not a valid image repository name"),
                Arguments.of("Argo Harbor, name only and no resource_url", WebhookFormat.HARBOR, peer("harbor-artifact-name-only.json"),
                        "every resource needs a 'resource_url'"),
                Arguments.of("Argo Harbor, a digest that is not one", WebhookFormat.HARBOR,
                        variant("peers/harbor-artifact-scheme-url.json", n -> ((ObjectNode) n.at("/event_data/resources/0"))
                                .put("digest", "sha256:abc123")), "digest 'sha256:abc123' is not an OCI digest"),
                Arguments.of("Argo Harbor, no resources", WebhookFormat.HARBOR,
                        variant("peers/harbor-artifact-scheme-url.json", n -> at(n, "event_data").putArray("resources")),
                        "'resources' must be a non-empty array"),
                Arguments.of("Argo Docker Hub, no repository", WebhookFormat.DOCKERHUB,
                        variant("peers/dockerhub-minimal.json", n -> at(n, "repository").removeAll()), "repository 'null'"),
                Arguments.of("Argo Docker Hub, no tag", WebhookFormat.DOCKERHUB,
                        variant("peers/dockerhub-minimal.json", n -> at(n, "push_data").removeAll()), "push_data.tag"),
                Arguments.of("Argo Quay, no repository", WebhookFormat.QUAY, Recorded.JSON.createObjectNode().put("invalid", "data"),
                        "repository 'null'"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refused")
    void refusesWithTheFieldToFix(String name, WebhookFormat format, JsonNode body, String fragment) {
        String message = assertThrows(InvalidEventException.class, () -> format.parser().parse(body, PACKAGE)).getMessage();
        assertEquals(true, message.contains(fragment), message);
    }
}
