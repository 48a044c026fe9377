package dev.rekon.bench;

import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;

/**
 * CloudEvents that are wrong in their envelope rather than their data, for {@link Fuzz}: binary mode with a
 * content type Rekon does not read, a required attribute missing or empty (binary and structured), an unknown
 * {@code specversion}, and data that is not a JSON object. Each is a sender's mistake: never a 5xx.
 */
final class EnvelopeCases {

    static final List<String> TYPES = List.of("dev.rekon.image.built", "dev.knative.apiserver.ref.add",
            "harbor.artifact.pushed", "dev.rekon.modules.wake");
    static final List<String> REQUIRED = List.of("specversion", "id", "source", "type");
    static final List<String> CONTENT_TYPES = List.of("application/xml", "text/plain", "multipart/form-data; boundary=x",
            "application/octet-stream", "application/x-www-form-urlencoded", "");
    static final List<String> SPEC_VERSIONS = List.of("0.1", "2.0", "1", "one", "1.0.0");
    static final List<String> NON_OBJECTS = List.of("[1]", "\"text\"", "42", "true", "null", "[]");

    /** One request and what it tries. */
    record Case(String what, HttpRequest request) {
    }

    private final URI root;
    private final Random random;

    EnvelopeCases(URI root, Random random) {
        this.root = root;
        this.random = random;
    }

    /** One case of each class, each with a random type and variant. */
    List<Case> next(String data) {
        String type = pick(TYPES);
        String attribute = pick(REQUIRED);
        String empty = pick(List.of("", " "));
        Map<String, String> missing = new LinkedHashMap<>(Map.of(attribute, "\u0000"));
        return List.of(
                new Case("binary content type", binary(type, pick(CONTENT_TYPES), data, Map.of())),
                new Case("binary without ce-" + attribute, binary(type, "application/json", data, missing)),
                new Case("binary empty ce-" + attribute, binary(type, "application/json", data, Map.of(attribute, empty))),
                new Case("structured without " + attribute, structured(type, "{}", Map.of(attribute, "\u0000"))),
                new Case("structured empty " + attribute, structured(type, "{}", Map.of(attribute, "\"" + empty + "\""))),
                new Case("binary unknown specversion", binary(type, "application/json", "{}",
                        Map.of("specversion", pick(SPEC_VERSIONS)))),
                new Case("structured unknown specversion", structured(type, "{}",
                        Map.of("specversion", "\"" + pick(SPEC_VERSIONS) + "\""))),
                new Case("binary non-object data", binary(type, "application/json", pick(NON_OBJECTS), Map.of())),
                new Case("structured non-object data", structured(type, pick(NON_OBJECTS), Map.of())));
    }

    /** Binary mode; an attribute whose value is NUL is left out. */
    private HttpRequest binary(String type, String contentType, String data, Map<String, String> attributes) {
        Map<String, String> all = new LinkedHashMap<>(Map.of("specversion", "1.0", "id", UUID.randomUUID().toString(),
                "source", "fuzz", "type", type, "kind", "Image", "namespace", "default", "name", "x"));
        all.putAll(attributes);
        HttpRequest.Builder b = HttpRequest.newBuilder(root.resolve("/")).timeout(Duration.ofSeconds(30));
        all.forEach((k, v) -> {
            if (!v.equals("\u0000")) {
                b.header("ce-" + k, v);
            }
        });
        if (!contentType.isEmpty()) {
            b.header("Content-Type", contentType);
        }
        return b.POST(HttpRequest.BodyPublishers.ofString(data)).build();
    }

    /** Structured mode; attribute values are JSON, and NUL leaves the attribute out. */
    private HttpRequest structured(String type, String data, Map<String, String> attributes) {
        Map<String, String> all = new LinkedHashMap<>(Map.of("specversion", "\"1.0\"", "id", "\"" + UUID.randomUUID() + "\"",
                "source", "\"fuzz\"", "type", "\"" + type + "\"", "datacontenttype", "\"application/json\""));
        all.putAll(attributes);
        StringBuilder json = new StringBuilder("{");
        all.forEach((k, v) -> {
            if (!v.equals("\u0000")) {
                json.append('"').append(k).append("\":").append(v).append(',');
            }
        });
        json.append("\"data\":").append(data).append('}');
        return HttpRequest.newBuilder(root.resolve("/")).timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/cloudevents+json")
                .POST(HttpRequest.BodyPublishers.ofString(json.toString())).build();
    }

    private String pick(List<String> options) {
        return options.get(random.nextInt(options.size()));
    }
}
