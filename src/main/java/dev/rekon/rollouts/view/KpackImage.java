package dev.rekon.rollouts.view;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;

import dev.rekon.cluster.Conditions;

/**
 * What a rollout needs to know of a kpack Image: its newest built image, which build produced it (kpack's
 * {@code status.buildCounter}, or the number in {@code status.latestBuildRef}), and whether it is Ready.
 * Manual events give the same facts with an explicit build number or time.
 */
public record KpackImage(String namespace, String name, String uid, String latestImage, Long buildCounter,
        Instant buildTime, boolean ready, String notReadyMessage) {

    private static final Pattern BUILD_REF = Pattern.compile(".*-build-(\\d+)(?:-[a-z0-9]+)?$");

    public static KpackImage fromJson(JsonNode image) {
        JsonNode meta = image.path("metadata");
        JsonNode status = image.path("status");
        JsonNode ready = Conditions.find(status.path("conditions"), "Ready");
        boolean isReady = ready != null && "True".equals(ready.path("status").asText());
        String why = ready == null ? "kpack has not reported a Ready condition yet"
                : "Ready is " + ready.path("status").asText() + reasonSuffix(ready);
        return new KpackImage(meta.path("namespace").asText(null), meta.path("name").asText(null),
                meta.path("uid").asText(null), text(status, "latestImage"), buildCounter(status), null,
                isReady, isReady ? null : why);
    }

    public static KpackImage manual(String namespace, String name, String latestImage, Long buildNumber,
            Instant time) {
        return new KpackImage(namespace, name, null, latestImage, buildNumber, time, true, null);
    }

    /** True when kpack says Ready and has a latest image to roll out. */
    public boolean rollable() {
        return ready && latestImage != null;
    }

    private static Long buildCounter(JsonNode status) {
        JsonNode counter = status.get("buildCounter");
        if (counter != null && counter.canConvertToLong()) {
            return counter.asLong();
        }
        String ref = text(status, "latestBuildRef");
        if (ref != null) {
            Matcher m = BUILD_REF.matcher(ref);
            if (m.matches()) {
                return Long.parseLong(m.group(1));
            }
        }
        return null;
    }

    static Instant parseTime(String text) {
        try {
            return text == null ? null : Instant.parse(text);
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    private static String reasonSuffix(JsonNode condition) {
        String reason = condition.path("reason").asText("");
        String message = condition.path("message").asText("");
        String both = (reason + (reason.isEmpty() || message.isEmpty() ? "" : ": ") + message).trim();
        return both.isEmpty() ? "" : " (" + both + ")";
    }

    private static String text(JsonNode node, String field) {
        JsonNode v = node.get(field);
        return v == null || !v.isTextual() || v.asText().isBlank() ? null : v.asText();
    }

    /**
     * The Images an ImageDeploy in {@code namespace} names through {@code refs}, by name, among {@code byKey} (keyed
     * {@code namespace/name}); the ones not there are left out.
     */
    public static Map<String, KpackImage> named(String namespace, List<ImageDeployView.ContainerRef> refs,
            Map<String, KpackImage> byKey) {
        Map<String, KpackImage> named = new LinkedHashMap<>();
        refs.forEach(ref -> {
            KpackImage image = byKey.get(namespace + "/" + ref.imageName());
            if (image != null) {
                named.put(ref.imageName(), image);
            }
        });
        return named;
    }
}
