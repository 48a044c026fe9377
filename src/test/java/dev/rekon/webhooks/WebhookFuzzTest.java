package dev.rekon.webhooks;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.specification.RequestSpecification;

/**
 * Mutates every format's recorded payloads (structure and bytes, seeded so that a failure replays) and posts each
 * to the running app, properly authenticated so that the mutations reach the parsers: no answer may be a 5xx.
 */
@QuarkusTest
@TestProfile(WebhookTestProfile.class)
class WebhookFuzzTest {

    static final long SEED = Long.getLong("rekon.fuzz.seed", 20261122L);
    static final int CASES = Integer.getInteger("rekon.fuzz.cases", 3000);
    static final long BUDGET_MILLIS = Long.getLong("rekon.fuzz.millis", 120_000L);
    static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    record Target(String path, String contentType, Map<String, String> headers, JsonNode payload) {
    }

    static List<Target> targets() {
        List<Target> t = new ArrayList<>();
        String distribution = "application/vnd.docker.distribution.events.v1+json";
        t.add(new Target("/webhooks/distribution", distribution, Map.of("Authorization", "Bearer test-token"),
                Recorded.json("distribution/manifest-and-blob-push.json")));
        for (Recorded.Request capture : Recorded.distributionCaptures()) {
            t.add(new Target("/webhooks/distribution", distribution, Map.of("Authorization", "Bearer test-token"),
                    readTree(capture.body())));
        }
        for (String f : List.of("harbor/push-artifact.json", "harbor/push-artifact-by-digest.json", "harbor/pull-artifact.json")) {
            t.add(new Target("/webhooks/harbor", "application/json", Map.of("Authorization", "Bearer harbor-test-token"),
                    Recorded.json(f)));
        }
        JsonNode cloudEvent = Recorded.json("harbor-cloudevents/artifact-pushed.json");
        t.add(new Target("/webhooks/harbor", "application/cloudevents+json",
                Map.of("Authorization", "Bearer harbor-test-token"), cloudEvent));
        t.add(new Target("/", "application/cloudevents+json", Map.of("Authorization", "Bearer harbor-test-token"), cloudEvent));
        t.add(new Target("/webhooks/dockerhub/dockerhub-test-path-token", "application/json", Map.of(),
                Recorded.json("dockerhub/push.json")));
        for (String f : List.of("github/package-published.json", "github/registry_package-published.json",
                "github/package-published-npm.json")) {
            String event = f.contains("registry_package") ? "registry_package" : "package";
            t.add(new Target("/webhooks/github", "application/json", Map.of("X-GitHub-Event", event), Recorded.json(f)));
        }
        for (String f : List.of("quay/repository-push.json", "quay/repository-push-legacy.json")) {
            t.add(new Target("/webhooks/quay", "application/json", Map.of("Authorization", "Bearer quay-test-token"),
                    Recorded.json(f)));
        }
        return t;
    }

    @Test
    void noMutationOfAnyFormatGetsA5xx() {
        Random random = new Random(SEED);
        List<Target> targets = targets();
        long deadline = System.currentTimeMillis() + BUDGET_MILLIS;
        int sent = 0;
        List<String> failures = new ArrayList<>();
        for (; sent < CASES && System.currentTimeMillis() < deadline; sent++) {
            Target target = targets.get(sent % targets.size());
            byte[] body = mutate(target.payload(), random);
            int status = request(target, body).post(target.path()).statusCode();
            if (status >= 500) {
                failures.add("case " + sent + " (seed " + SEED + ") " + target.path() + " -> " + status + ": "
                        + new String(body, 0, Math.min(body.length, 300), StandardCharsets.UTF_8));
            }
        }
        assertEquals(List.of(), failures);
        assertTrue(sent >= Math.min(CASES, 1000), "only " + sent + " cases fitted in the time budget");
        given().contentType("application/json").header("Authorization", "Bearer quay-test-token")
                .body(Recorded.resource("quay/repository-push.json")).post("/webhooks/quay").then().statusCode(200);
    }

    private static RequestSpecification request(Target target, byte[] body) {
        RequestSpecification r = given().contentType(target.contentType()).headers(target.headers()).body(body);
        if (target.path().equals("/webhooks/github")) {
            r.header("X-Hub-Signature-256", Signatures.sign("github-test-secret", body));
        }
        return r;
    }

    static byte[] mutate(JsonNode payload, Random random) {
        JsonNode copy = payload.deepCopy();
        int structural = 1 + random.nextInt(4);
        for (int i = 0; i < structural; i++) {
            copy = mutateTree(copy, random);
        }
        byte[] bytes = copy.toString().getBytes(StandardCharsets.UTF_8);
        return random.nextInt(5) == 0 ? mutateBytes(bytes, random) : bytes;
    }

    /** Replaces, removes or adds one node somewhere in the tree (or the whole tree, rarely). */
    static JsonNode mutateTree(JsonNode root, Random random) {
        if (random.nextInt(40) == 0) {
            return randomValue(random, 0);
        }
        List<JsonNode> containers = new ArrayList<>();
        collect(root, containers);
        if (containers.isEmpty()) {
            return root;
        }
        JsonNode container = containers.get(random.nextInt(containers.size()));
        if (container instanceof ObjectNode o) {
            List<String> names = new ArrayList<>();
            for (Iterator<String> it = o.fieldNames(); it.hasNext();) {
                names.add(it.next());
            }
            String name = names.isEmpty() || random.nextInt(6) == 0 ? randomString(random) : names.get(random.nextInt(names.size()));
            if (random.nextInt(3) == 0) {
                o.remove(name);
            } else {
                o.set(name, randomValue(random, 0));
            }
        } else if (container instanceof ArrayNode a) {
            if (a.size() > 0 && random.nextBoolean()) {
                a.remove(random.nextInt(a.size()));
            } else {
                a.add(randomValue(random, 0));
            }
        }
        return root;
    }

    static void collect(JsonNode node, List<JsonNode> containers) {
        if (node.isContainerNode()) {
            containers.add(node);
            node.forEach(child -> collect(child, containers));
        }
    }

    static JsonNode randomValue(Random random, int depth) {
        switch (random.nextInt(depth > 3 ? 6 : 9)) {
            case 0: return NODES.nullNode();
            case 1: return NODES.booleanNode(random.nextBoolean());
            case 2: return NODES.numberNode(random.nextInt(5) == 0 ? Double.MAX_VALUE : random.nextLong());
            case 3: return NODES.textNode(randomString(random));
            case 4: return NODES.textNode(interesting(random));
            case 5: return NODES.textNode("");
            case 6: {
                ArrayNode a = NODES.arrayNode();
                for (int i = random.nextInt(4); i > 0; i--) {
                    a.add(randomValue(random, depth + 1));
                }
                return a;
            }
            default: {
                ObjectNode o = NODES.objectNode();
                for (int i = random.nextInt(4); i > 0; i--) {
                    o.set(random.nextBoolean() ? randomString(random) : interestingField(random), randomValue(random, depth + 1));
                }
                return o;
            }
        }
    }

    static String interesting(Random random) {
        String[] values = { "push", "pull", "PUSH_ARTIFACT", "harbor.artifact.pushed", "published", "container",
                "application/vnd.oci.image.manifest.v1+json", "sha256:", "sha256:" + "a".repeat(64), "sha256:" + "A".repeat(64),
                "../../etc/passwd", "a//b", "UPPER/case", "host:99999999/repo", "ghcr.io/x/y:1@sha256:" + "b".repeat(64),
                "\u0000", "\ud83d\ude00", "x".repeat(5000), "%00", "' or 1=1 --", "127.0.0.1:5000", "1.2.3" };
        return values[random.nextInt(values.length)];
    }

    static String interestingField(Random random) {
        String[] names = { "events", "action", "target", "tag", "digest", "repository", "mediaType", "request", "host",
                "type", "event_data", "resources", "resource_url", "repo_full_name", "push_data", "repo_name", "package",
                "package_version", "container_metadata", "package_url", "updated_tags", "docker_url", "data", "id" };
        return names[random.nextInt(names.length)];
    }

    static String randomString(Random random) {
        int length = random.nextInt(12);
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < length; i++) {
            s.append((char) (random.nextInt(3) == 0 ? random.nextInt(0x3000) : 'a' + random.nextInt(26)));
        }
        return s.toString();
    }

    /** Truncates, flips or inserts bytes: what a broken proxy or a hostile sender might produce. */
    static byte[] mutateBytes(byte[] bytes, Random random) {
        if (bytes.length == 0) {
            return bytes;
        }
        byte[] b = bytes.clone();
        switch (random.nextInt(3)) {
            case 0:
                return java.util.Arrays.copyOf(b, random.nextInt(b.length));
            case 1:
                for (int i = 1 + random.nextInt(8); i > 0; i--) {
                    b[random.nextInt(b.length)] = (byte) random.nextInt(256);
                }
                return b;
            default:
                int at = random.nextInt(b.length);
                byte[] insert = { '{', '[', '"', '\\', ',', ':', (byte) 0xC3, (byte) 0x28 };
                byte[] out = new byte[b.length + 1];
                System.arraycopy(b, 0, out, 0, at);
                out[at] = insert[random.nextInt(insert.length)];
                System.arraycopy(b, at, out, at + 1, b.length - at);
                return out;
        }
    }

    private static JsonNode readTree(byte[] body) {
        try {
            return Recorded.JSON.readTree(body);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
