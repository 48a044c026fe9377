package dev.rekon.webhooks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

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

class ParsersTest {

    static final String BUSYBOX = "sha256:dde8e930c7b6a490f728e66292bc9bce42efc9bbb5278bae40e4f30f6e00fe8c";
    static final String GHCR = "sha256:3da1996a8115d7616457760d9920b815241d0a03b34cf5f04e9a0e9d8de37498";

    static Stream<Arguments> recorded() {
        return Stream.of(
                Arguments.of(WebhookFormat.DISTRIBUTION, "distribution/manifest-and-blob-push.json", Map.of(),
                        List.of(new ImagePushed("registry.example.com", "library/test", "2.4.1",
                                "sha256:fea8895f450959fa676bcc1df0611ea93823a735a01205fd8622846041d0c7cf", "asdf-asdf-asdf-asdf-0")),
                        List.of("NotAManifestPush", "NotAPush")),
                Arguments.of(WebhookFormat.HARBOR, "harbor/push-artifact.json", Map.of(),
                        List.of(new ImagePushed("harbor.example.com", "library/busybox", "1.36.0", BUSYBOX, null)), List.of()),
                Arguments.of(WebhookFormat.HARBOR, "harbor/push-artifact-by-digest.json", Map.of(),
                        List.of(new ImagePushed("harbor.example.com:8443", "team-a/api", null,
                                "sha256:5b0bcabd1ed22e9fb1310cf6c2dec7cdef19f0ad69efa1f392e94a4333501270", null)), List.of()),
                Arguments.of(WebhookFormat.HARBOR, "harbor/pull-artifact.json", Map.of(), List.of(), List.of("NotAPush")),
                Arguments.of(WebhookFormat.HARBOR, "harbor-cloudevents/artifact-pushed.json", Map.of(),
                        List.of(new ImagePushed("harbor.example.com", "library/busybox", "1.36.0", BUSYBOX,
                                "/projects/1/webhook/policies/3#4b2f89a6-548d-4c12-9993-a1f5790b97d2/1.36.0@" + BUSYBOX)),
                        List.of()),
                Arguments.of(WebhookFormat.DOCKERHUB, "dockerhub/push.json", Map.of(),
                        List.of(new ImagePushed("docker.io", "acme/web", "v1.4.2", null, null)), List.of()),
                Arguments.of(WebhookFormat.GITHUB, "github/package-published.json",
                        Map.of("x-github-event", "package", "x-github-delivery", "72d3162e-cc78-11e3-81ab-4c9367dc0958"),
                        List.of(new ImagePushed("ghcr.io", "acme/shop-api", "2.0.3", GHCR, "72d3162e-cc78-11e3-81ab-4c9367dc0958")),
                        List.of()),
                Arguments.of(WebhookFormat.GITHUB, "github/registry_package-published.json",
                        Map.of("x-github-event", "registry_package", "x-github-delivery", "d1"),
                        List.of(new ImagePushed("ghcr.io", "acme/shop-api", "2.0.3", GHCR, "d1")), List.of()),
                Arguments.of(WebhookFormat.GITHUB, "github/package-published-npm.json",
                        Map.of("x-github-event", "package", "x-github-delivery", "d2"), List.of(), List.of("NotAContainerPackage")),
                Arguments.of(WebhookFormat.GITHUB, "github/package-published.json",
                        Map.of("x-github-event", "push", "x-github-delivery", "d3"), List.of(), List.of("NotAPackageEvent")),
                Arguments.of(WebhookFormat.QUAY, "quay/repository-push.json", Map.of(),
                        List.of(new ImagePushed("quay.io", "acme/api", "latest", null, null),
                                new ImagePushed("quay.io", "acme/api", "3.1.0", null, null)), List.of()),
                Arguments.of(WebhookFormat.QUAY, "quay/repository-push-legacy.json", Map.of(),
                        List.of(new ImagePushed("quay.io", "devtable/ubuntu", "latest", null, null)), List.of()));
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("recorded")
    void parsesRecordedPayloads(WebhookFormat format, String file, Map<String, String> headers,
            List<ImagePushed> pushes, List<String> ignoredReasons) {
        Delivery delivery = format.parser().parse(Recorded.json(file), headers);
        assertEquals(pushes, withoutDerivedIds(delivery.pushes()));
        assertEquals(ignoredReasons, delivery.ignored().stream().map(Delivery.Ignored::reason).toList());
    }

    /** Derived ids are hashes: assert that they exist and are stable, then compare the rest. */
    private static List<ImagePushed> withoutDerivedIds(List<ImagePushed> pushes) {
        return pushes.stream().map(p -> p.eventId() != null && p.eventId().matches("(harbor|dockerhub|github):[0-9a-f]{32}")
                ? p.withEventId(null) : p).toList();
    }

    @Test
    void derivesStableIdsWhereTheSenderGivesNone() {
        JsonNode hub = Recorded.json("dockerhub/push.json");
        String first = new DockerHubParser().parse(hub, Map.of()).pushes().get(0).eventId();
        assertEquals(first, new DockerHubParser().parse(hub, Map.of()).pushes().get(0).eventId());
        ((ObjectNode) hub.get("push_data")).put("pushed_at", 1417566999);
        assertEquals(false, first.equals(new DockerHubParser().parse(hub, Map.of()).pushes().get(0).eventId()));
    }

    @Test
    void parsesEveryRealDistributionCapture() {
        List<Recorded.Request> captures = Recorded.distributionCaptures();
        assumeTrue(!captures.isEmpty(), "shared distribution captures not available");
        long manifests = 0;
        for (Recorded.Request r : captures) {
            Delivery d = new DistributionParser().parse(readTree(r.body()), Map.of());
            manifests += d.pushes().size();
            d.pushes().forEach(p -> assertEquals(true, p.digest() != null && p.tag() != null, p.toString()));
        }
        assertEquals(true, manifests >= 5, "every capture file holds one manifest push");
    }

    @Test
    void takesRegistryFromTheRequestHostOfARealCapture() {
        JsonNode body = Recorded.sharedPayload("notification-example-jib-docker-v2.json").map(n -> n.get("body")).orElse(null);
        assumeTrue(body != null, "shared distribution captures not available");
        assertEquals(new ImagePushed("127.0.0.1:5000", "jib/demo", "1.0",
                "sha256:183f6b9724b50ce0e033b11851b6af94d6c0ef7cd7e7bade327a516935d1c5b3", "83f4cec1-0ac1-41bd-bb4d-55d840a0c147"),
                new DistributionParser().parse(body, Map.of()).pushes().get(0));
    }

    static Stream<Arguments> malformed() {
        return Stream.of(
                Arguments.of(WebhookFormat.DISTRIBUTION, "{\"events\":{}}",
                        "distribution notification: the envelope needs an 'events' array"),
                Arguments.of(WebhookFormat.DISTRIBUTION,
                        "{\"events\":[{\"id\":\"e\",\"action\":\"push\",\"request\":{\"host\":\"r\"},\"target\":{\"mediaType\":\"application/vnd.oci.image.manifest.v1+json\",\"repository\":\"Bad Name\"}}]}",
                        "distribution event e: repository 'Bad Name' is not a valid image repository name (lower-case path components)"),
                Arguments.of(WebhookFormat.HARBOR, "{\"type\":\"PUSH_ARTIFACT\"}",
                        "Harbor PUSH_ARTIFACT: 'event_data' must be a JSON object"),
                Arguments.of(WebhookFormat.HARBOR,
                        "{\"type\":\"PUSH_ARTIFACT\",\"event_data\":{\"repository\":{\"repo_full_name\":\"a/b\"},\"resources\":[{\"tag\":\"1\",\"digest\":\"sha256:abc\",\"resource_url\":\"h/a/b:1\"}]}}",
                        "Harbor PUSH_ARTIFACT: digest 'sha256:abc' is not an OCI digest (sha256:<64 hex>)"),
                Arguments.of(WebhookFormat.DOCKERHUB, "{\"push_data\":{},\"repository\":{\"repo_name\":\"a/b\"}}",
                        "Docker Hub webhook: push_data.tag is missing"),
                Arguments.of(WebhookFormat.QUAY, "{\"repository\":\"a/b\",\"docker_url\":\"quay.io/a/b\",\"updated_tags\":[\"x y\"]}",
                        "Quay repository push: tag 'x y' is not a valid image tag"));
    }

    @ParameterizedTest(name = "{0}: {2}")
    @MethodSource("malformed")
    void saysWhatToFixInMalformedPayloads(WebhookFormat format, String body, String message) {
        InvalidEventException e = assertThrows(InvalidEventException.class,
                () -> format.parser().parse(readTree(body.getBytes()), Map.of("x-github-event", "package")));
        assertEquals(message, e.getMessage());
    }

    private static JsonNode readTree(byte[] body) {
        try {
            return Recorded.JSON.readTree(body);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
