package dev.rekon.bench;

import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import dev.rekon.webhooks.Signatures;

/**
 * Every content type × every body size × every endpoint, the same requests on every run: the shapes a fuzzer
 * finds only by chance (no Content-Type and no body, a long form field, a multipart body, a body just over a
 * limit). Decides what a failure is: a 5xx, no answer, or an answer that carries framework text (an exception's
 * name, a framework's package) instead of Rekon's {@code {"error", "message"}}.
 */
public final class Sweep {

    /** None (null), JSON and CloudEvents JSON, text, both form encodings, raw bytes and a type nobody knows. */
    public static final List<String> CONTENT_TYPES = java.util.Arrays.asList(null, "application/json",
            "application/cloudevents+json", "text/plain", "application/x-www-form-urlencoded",
            "multipart/form-data; boundary=rekon-sweep", "application/octet-stream", "garbage/%%; x");
    /** The sizes the chaos run's fuzz pass sweeps: empty, one byte, over a form field's 2 KB, and large. */
    public static final List<Integer> SMALL = List.of(0, 1, 3 * 1024, 64 * 1024);
    /** Framework text a reply must not carry: an exception's class name, or a framework's package. */
    static final Pattern FRAMEWORK = Pattern.compile("[A-Za-z]+Exception|io\\.(vertx|netty|quarkus)|com\\.fasterxml"
            + "|java\\.(lang|io|util)");

    /** Rekon's error reply, {@code {"error": …, "message": …}} in either order. */
    static final Pattern REKON_ERROR = Pattern.compile("\\{\"(error|message)\":\".*\",\"(error|message)\":\".*\"}",
            Pattern.DOTALL);

    /** One endpoint: method, path, the headers that get past its authentication, and whether Rekon serves it. */
    record Endpoint(String method, String path, Map<String, String> headers, boolean rekons) {
        Endpoint(String method, String path, Map<String, String> headers) {
            this(method, path, headers, true);
        }
    }

    private final Poster poster;
    private final List<String> failures = new ArrayList<>();
    private int requests;

    public Sweep(Poster poster) {
        this.poster = poster;
    }

    /** Every endpoint Rekon serves, and a few it does not, each as a sender reaches it. */
    static List<Endpoint> endpoints() {
        List<Endpoint> e = new ArrayList<>();
        e.add(new Endpoint("POST", "/", Map.of("ce-specversion", "1.0", "ce-id", "sweep", "ce-source", "sweep",
                "ce-type", "dev.rekon.image.built")));
        e.add(new Endpoint("POST", "/", Map.of("ce-specversion", "1.0", "ce-id", "sweep", "ce-source", "sweep",
                "ce-type", "harbor.artifact.pushed", "Authorization", "Bearer harbor-test-token")));
        e.add(new Endpoint("POST", "/", Map.of()));
        Fuzz.WEBHOOKS.forEach((path, headers) -> e.add(new Endpoint("POST", path, withoutSignature(headers))));
        e.add(new Endpoint("POST", "/webhooks/harbor", Map.of("Authorization", "Bearer wrong")));
        e.add(new Endpoint("POST", "/webhooks/dockerhub", Map.of()));
        e.add(new Endpoint("POST", "/webhooks/no-such-sender", Map.of()));
        for (String path : List.of("/status", "/modules")) {
            e.add(new Endpoint("POST", path, Map.of()));
        }
        e.add(new Endpoint("POST", "/no-such-function", Map.of(), false));
        for (String path : List.of("/", "/status", "/status?area=nope", "/modules")) {
            e.add(new Endpoint("GET", path, Map.of()));
        }
        return e;
    }

    /** Sends every combination with bodies of the given sizes; the failures, empty when there are none. */
    public List<String> run(List<Integer> sizes) {
        for (Endpoint endpoint : endpoints()) {
            for (String contentType : CONTENT_TYPES) {
                for (int size : sizes) {
                    check(endpoint, contentType, body(contentType, size));
                }
            }
        }
        return failures;
    }

    public int requests() {
        return requests;
    }

    private void check(Endpoint endpoint, String contentType, byte[] body) {
        requests++;
        Poster.Answer a = poster.send(request(endpoint, contentType, body));
        String problem = a.status() == 0 ? "no answer" : a.status() >= 500 ? "a 5xx"
                : FRAMEWORK.matcher(a.body()).find() ? "framework text"
                : endpoint.rekons() && a.status() >= 400 && !REKON_ERROR.matcher(a.body()).matches() ? "not Rekon's error shape"
                : null;
        if (problem != null && failures.size() < 40) {
            failures.add(endpoint.method() + " " + endpoint.path() + " " + endpoint.headers().keySet() + " Content-Type "
                    + contentType + ", " + body.length + " bytes: " + problem + ": " + a.status() + " "
                    + a.body().substring(0, Math.min(a.body().length(), 300)));
        }
    }

    private HttpRequest request(Endpoint endpoint, String contentType, byte[] body) {
        HttpRequest.Builder b = HttpRequest.newBuilder(poster.root().resolve(endpoint.path()))
                .timeout(Duration.ofSeconds(60)).method(endpoint.method(), HttpRequest.BodyPublishers.ofByteArray(body));
        endpoint.headers().forEach(b::header);
        if (endpoint.path().equals("/webhooks/github")) {
            b.header("X-GitHub-Event", "package").header("X-Hub-Signature-256", Signatures.sign("github-test-secret", body));
        }
        if (contentType != null) {
            b.header("Content-Type", contentType);
        }
        return b.build();
    }

    /** A body of exactly {@code size} bytes in the shape its content type announces (one long field for forms). */
    static byte[] body(String contentType, int size) {
        String type = contentType == null ? "" : contentType;
        String shape = type.startsWith("multipart/")
                ? "--rekon-sweep\r\nContent-Disposition: form-data; name=\"field\"\r\n\r\n"
                : type.startsWith("application/x-www-form-urlencoded") ? "field=" : type.contains("json") ? "{\"pad\":\"" : "";
        byte[] b = new byte[size];
        byte[] start = shape.getBytes(StandardCharsets.US_ASCII);
        for (int i = 0; i < size; i++) {
            b[i] = i < start.length ? start[i] : (byte) 'x';
        }
        return b;
    }

    private static Map<String, String> withoutSignature(Map<String, String> headers) {
        Map<String, String> h = new LinkedHashMap<>(headers);
        h.remove("X-Hub-Signature-256"); // signed per body in request()
        return h;
    }
}
