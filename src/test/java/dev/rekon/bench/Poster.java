package dev.rekon.bench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Executors;

/** Posts CloudEvents in binary mode to the application, as a Knative Trigger delivers them. */
public final class Poster {

    /** The HTTP status (0 when the connection failed) and body of one delivery. */
    public record Answer(int status, String body) {
    }

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).executor(Executors.newFixedThreadPool(4)).build();
    private final URI root;

    public Poster(int port) {
        this.root = URI.create("http://127.0.0.1:" + port + "/");
    }

    public URI root() {
        return root;
    }

    public Answer event(String type, Map<String, String> extensions, String data) {
        HttpRequest.Builder b = HttpRequest.newBuilder(root).timeout(Duration.ofSeconds(30))
                .header("ce-specversion", "1.0").header("ce-id", UUID.randomUUID().toString())
                .header("ce-source", "https://127.0.0.1:6443").header("ce-type", type)
                .header("Content-Type", "application/json");
        extensions.forEach((k, v) -> b.header("ce-" + k, v));
        return send(b.POST(HttpRequest.BodyPublishers.ofString(data)).build());
    }

    /**
     * A {@code dev.rekon.resync} of {@code scope} over every namespace, waited for up to an hour: a pass that creates
     * thousands of objects outlasts {@link #event}'s 30 s. Anything but 200 is a failed bench.
     */
    public Answer pass(String scope) {
        Answer a = send(HttpRequest.newBuilder(root).timeout(Duration.ofMinutes(60)).header("ce-specversion", "1.0")
                .header("ce-id", UUID.randomUUID().toString()).header("ce-source", "bench")
                .header("ce-type", "dev.rekon.resync").header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"scope\":\"" + scope + "\"}")).build());
        if (a.status() != 200) {
            throw new IllegalStateException("resync of " + scope + " answered " + a.status() + ": " + a.body());
        }
        return a;
    }

    public Answer send(HttpRequest request) {
        try {
            HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString());
            return new Answer(r.statusCode(), r.body());
        } catch (IOException e) {
            return new Answer(0, String.valueOf(e));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Answer(0, "interrupted");
        }
    }

    public static Map<String, String> image(String namespace, String name) {
        return Map.of("apiversion", "kpack.io/v1alpha2", "kind", "Image", "namespace", namespace, "name", name);
    }

    /** The object an ApiServerSource in Resource mode sends for a kpack Image after build {@code build}. */
    public static String imageObject(String namespace, String name, String latestImage, long build, String uid) {
        return """
                {"apiVersion":"kpack.io/v1alpha2","kind":"Image","metadata":{"name":"%s","namespace":"%s","uid":"%s",
                 "generation":1},"spec":{"tag":"registry.local/%s/%s"},"status":{"latestImage":"%s","buildCounter":%d,
                 "latestBuildRef":"%s-build-%d","observedGeneration":1,"conditions":[{"type":"Ready","status":"True"},
                 {"type":"BuilderReady","status":"True"}]}}""".formatted(name, namespace, uid, namespace, name,
                latestImage, build, name, build);
    }

    /** A digest reference whose digest encodes the build number, so a Deployment's image tells its build. */
    public static String digest(String repo, long build) {
        return repo + "@sha256:" + String.format("%064x", build);
    }

    public static long buildOf(String reference) {
        int at = reference.indexOf("@sha256:");
        return at < 0 ? -1 : Long.parseLong(reference.substring(at + 8), 16);
    }
}
