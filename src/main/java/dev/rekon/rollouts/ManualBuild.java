package dev.rekon.rollouts;

import java.time.Instant;
import java.time.format.DateTimeParseException;

import com.fasterxml.jackson.databind.JsonNode;

import dev.rekon.core.InvalidEventException;
import dev.rekon.events.ApiServerEvent;
import dev.rekon.rollouts.view.KpackImage;

/**
 * Reads the manual event for curl users, {@value #TYPE}: {@code {"namespace", "image", "latestImage",
 * "buildNumber"|"time"}}, where {@code image} names the kpack Image and {@code latestImage} is the reference to
 * roll out. A build number or time is required, so that a late event can never roll back a newer build.
 */
final class ManualBuild {

    static final String TYPE = "dev.rekon.image.built";

    private ManualBuild() {
    }

    static KpackImage parse(JsonNode d) {
        if (d == null || !d.isObject()) {
            throw new InvalidEventException(TYPE + " needs JSON data: {\"namespace\":..., \"image\": <kpack Image"
                    + " name>, \"latestImage\": <image reference>, \"buildNumber\": <n> or \"time\": <RFC 3339>}");
        }
        String namespace = required(d, "namespace");
        ApiServerEvent.requireObjectName("namespace", namespace);
        String image = required(d, "image");
        ApiServerEvent.requireObjectName("image", image);
        String latest = required(d, "latestImage");
        Long build = d.hasNonNull("buildNumber") ? buildNumber(d.get("buildNumber")) : null;
        Instant time = d.hasNonNull("time") ? time(d.get("time").asText()) : null;
        if (build == null && time == null) {
            throw new InvalidEventException(TYPE + " needs \"buildNumber\" or \"time\" so that a late event "
                    + "cannot roll back a newer build");
        }
        return KpackImage.manual(namespace, image, latest, build, time);
    }

    private static String required(JsonNode d, String field) {
        JsonNode v = d.get(field);
        if (v == null || !v.isTextual() || v.asText().isBlank()) {
            throw new InvalidEventException(TYPE + " needs a non-empty string \"" + field + "\"");
        }
        return v.asText();
    }

    private static Long buildNumber(JsonNode v) {
        if (v.canConvertToLong() && v.isIntegralNumber() && v.asLong() >= 0) {
            return v.asLong();
        }
        if (v.isTextual() && v.asText().matches("\\d{1,18}")) {
            return Long.parseLong(v.asText());
        }
        throw new InvalidEventException("\"buildNumber\" must be a non-negative whole number, not " + v);
    }

    private static Instant time(String text) {
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException e) {
            throw new InvalidEventException("\"time\" must be an RFC 3339 time such as 2026-11-22T10:15:30Z, not '"
                    + text + "'");
        }
    }
}
