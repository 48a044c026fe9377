package dev.rekon.bench;

import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;

/**
 * Malformed input to every endpoint: each CloudEvent type and ApiServerSource kind the functions take, in
 * binary and structured mode, envelopes a sender got wrong ({@link EnvelopeCases}: content types, missing or
 * empty required attributes, unknown {@code specversion}, non-object data), every webhook format
 * (authenticated, so the parsers are reached), {@code GET /modules}, and the deterministic {@link Sweep} of
 * content types × body sizes × endpoints. Counts the answers that are 5xx (and, from the sweep, replies with
 * framework text or not in Rekon's error shape), which must be none.
 */
public final class Fuzz {

    /** Requests sent, 5xx answers, the first few of those, and the 5xx per target. */
    public record Result(int requests, int fiveXx, List<String> examples, Map<String, Integer> fiveXxByTarget) {

        /** 5xx from targets other than {@code excluded}. */
        public int fiveXxExcept(List<String> excluded) {
            return fiveXxByTarget.entrySet().stream().filter(e -> excluded.stream().noneMatch(x -> e.getKey().contains(x)))
                    .mapToInt(Map.Entry::getValue).sum();
        }
    }

    static final List<String> KINDS = List.of("Image", "ImageDeploy", "Buildpack", "ClusterBuildpack", "Builder",
            "ClusterBuilder", "ModuleReleaseMeta", "ModuleTemplate", "Unknown");
    static final List<String> APISERVER_TYPES = List.of("dev.knative.apiserver.resource.add",
            "dev.knative.apiserver.resource.update", "dev.knative.apiserver.resource.delete",
            "dev.knative.apiserver.ref.add", "dev.knative.apiserver.ref.update", "dev.knative.apiserver.ref.delete");
    static final List<String> MANUAL_TYPES = List.of("dev.rekon.image.built", "dev.rekon.buildpacks.published",
            "dev.rekon.modules.release", "dev.rekon.modules.wake", "dev.rekon.modules.hibernate",
            "harbor.artifact.pushed", "no.such.type");
    /** Webhook path and the headers that authenticate it with the secrets the runs configure. */
    static final Map<String, Map<String, String>> WEBHOOKS = Map.of(
            "/webhooks/distribution", Map.of("Authorization", "Bearer test-token"),
            "/webhooks/harbor", Map.of("Authorization", "Bearer harbor-test-token"),
            "/webhooks/quay", Map.of("Authorization", "Bearer quay-test-token"),
            "/webhooks/dockerhub/dockerhub-test-path-token", Map.of(),
            "/webhooks/github", Map.of("X-Hub-Signature-256", "sha256=" + "0".repeat(64)));

    private final Poster poster;
    private final Random random;
    private int requests;
    private final List<String> examples = new ArrayList<>();
    private int fiveXx;
    private final Map<String, Integer> byTarget = new java.util.TreeMap<>();

    private final EnvelopeCases envelopes;

    public Fuzz(Poster poster, long seed) {
        this.poster = poster;
        this.random = new Random(seed);
        this.envelopes = new EnvelopeCases(poster.root(), random);
    }

    public Result run(int bodiesPerTarget) {
        for (int n = 0; n < bodiesPerTarget; n++) {
            String body = body(n);
            for (String type : APISERVER_TYPES) {
                for (String kind : KINDS) {
                    check("binary " + type + " " + kind, poster.event(type, Map.of("kind", kind, "apiversion",
                            pick("kpack.io/v1alpha2", "rekon.dev/v1alpha1", "", "x/y/z"), "namespace",
                            pick("default", "", "Bad_NS"), "name", pick("x", "", "a/b")), body));
                }
            }
            for (String type : MANUAL_TYPES) {
                check("binary " + type, poster.event(type, Map.of(), body));
                check("structured " + type, raw("/", "application/cloudevents+json", structured(type, body), Map.of()));
            }
            for (var w : WEBHOOKS.entrySet()) {
                check("webhook " + w.getKey(), raw(w.getKey(), pick("application/json",
                        "application/vnd.docker.distribution.events.v1+json", "text/plain", "application/cloudevents+json"),
                        body, w.getValue()));
            }
            for (EnvelopeCases.Case c : envelopes.next(body)) {
                check(c.what(), poster.send(c.request()));
            }
            check("structured garbage", raw("/", "application/cloudevents+json", body, Map.of()));
            check("no ce headers", raw("/", "application/json", body, Map.of()));
        }
        check("GET /modules", poster.send(HttpRequest.newBuilder(poster.root().resolve("/modules?namespace=%25&limit=-1"))
                .timeout(Duration.ofSeconds(30)).GET().build()));
        sweep();
        return new Result(requests, fiveXx, examples, byTarget);
    }

    private void sweep() {
        Sweep sweep = new Sweep(poster);
        for (String failure : sweep.run(Sweep.SMALL)) {
            fiveXx++;
            byTarget.merge("sweep", 1, Integer::sum);
            if (examples.size() < 10) {
                examples.add("sweep: " + failure);
            }
        }
        requests += sweep.requests();
    }

    private void check(String what, Poster.Answer a) {
        requests++;
        if (a.status() >= 500 || a.status() == 0) {
            fiveXx++;
            byTarget.merge(what, 1, Integer::sum);
            if (examples.size() < 10) {
                examples.add(what + " -> " + a.status() + " " + a.body());
            }
        }
    }

    private Poster.Answer raw(String path, String contentType, String body, Map<String, String> headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(poster.root().resolve(path)).timeout(Duration.ofSeconds(30))
                .header("Content-Type", contentType);
        headers.forEach(b::header);
        return poster.send(b.POST(HttpRequest.BodyPublishers.ofString(body)).build());
    }

    private String structured(String type, String data) {
        String d = random.nextBoolean() ? "\"data\":" + data : "\"data_base64\":\"" + data.replace("\"", "") + "\"";
        return "{\"specversion\":\"1.0\",\"id\":\"" + UUID.randomUUID() + "\",\"source\":\"fuzz\",\"type\":\"" + type
                + "\",\"datacontenttype\":\"application/json\"," + d + "}";
    }

    private String pick(String... options) {
        return options[random.nextInt(options.length)];
    }

    /** Malformed or mistyped documents, cycling through shapes and then random mutations. */
    private String body(int n) {
        List<String> fixed = List.of("", "null", "[]", "{}", "{", "\"text\"", "42", "{\"data\":",
                "{\"namespace\":1,\"image\":[],\"latestImage\":{},\"buildNumber\":\"x\"}",
                "{\"namespace\":\"default\",\"image\":\"a\",\"latestImage\":\"b\",\"buildNumber\":-1}",
                "{\"namespace\":\"default\",\"image\":\"a\",\"latestImage\":\"b\",\"time\":\"yesterday\"}",
                "{\"apiVersion\":\"kpack.io/v1alpha2\",\"kind\":\"Image\",\"metadata\":null,\"status\":[1,2]}",
                "{\"metadata\":{\"name\":{},\"namespace\":[]},\"spec\":\"x\",\"status\":{\"conditions\":\"no\"}}",
                "{\"events\":[{\"action\":\"push\",\"target\":null}]}", "{\"events\":\"x\"}",
                "[".repeat(5000) + "]".repeat(5000), "{\"a\":\"" + "\u0000\uFFFF".repeat(200) + "\"}",
                new String(new byte[] {(byte) 0xff, (byte) 0xfe, 0x00, 0x7b}, StandardCharsets.ISO_8859_1));
        if (n < fixed.size()) {
            return fixed.get(n);
        }
        StringBuilder s = new StringBuilder(fixed.get(random.nextInt(fixed.size())));
        for (int i = 0; i < 3 && s.length() > 0; i++) {
            int at = random.nextInt(s.length());
            s.setCharAt(at, "{}[]\",:0-x\\".charAt(random.nextInt(11)));
        }
        return s.toString();
    }
}
