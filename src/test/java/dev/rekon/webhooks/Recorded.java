package dev.rekon.webhooks;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Recorded webhook payloads: the ones written from each vendor's documented schema (test resources), and the
 * real distribution captures in the shared directory (absent on machines without it).
 */
final class Recorded {

    static final ObjectMapper JSON = new ObjectMapper();

    /** One request as a sender would make it. */
    record Request(String name, Map<String, String> headers, byte[] body) {
    }

    private Recorded() {
    }

    static byte[] resource(String path) {
        try (InputStream in = Recorded.class.getResourceAsStream("/webhooks/" + path)) {
            if (in == null) {
                throw new IllegalArgumentException("no test resource webhooks/" + path);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static JsonNode json(String path) {
        try {
            return JSON.readTree(resource(path));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Path sharedDir() {
        return Path.of(System.getProperty("rekon.shared.dir", "../shared"));
    }

    /** The real distribution captures with headers, each as the registry POSTed it; empty without the shared dir. */
    static List<Request> distributionCaptures() {
        Path dir = sharedDir().resolve("payloads/distribution");
        List<Request> requests = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return requests;
        }
        try (var files = Files.list(dir)) {
            for (Path file : files.sorted().toList()) {
                JsonNode root = JSON.readTree(file.toFile());
                List<JsonNode> posts = root.isArray() ? iterate(root) : List.of(root);
                for (JsonNode post : posts) {
                    requests.add(post.has("body") ? new Request(file.getFileName().toString(),
                            JSON.convertValue(post.get("headers"), Map.class), JSON.writeValueAsBytes(post.get("body")))
                            : new Request(file.getFileName().toString(), Map.of(), JSON.writeValueAsBytes(post)));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return requests;
    }

    static Optional<JsonNode> sharedPayload(String name) {
        Path file = sharedDir().resolve("payloads/distribution").resolve(name);
        try {
            return Files.exists(file) ? Optional.of(JSON.readTree(file.toFile())) : Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<JsonNode> iterate(JsonNode array) {
        List<JsonNode> list = new ArrayList<>();
        array.forEach(list::add);
        return list;
    }
}
