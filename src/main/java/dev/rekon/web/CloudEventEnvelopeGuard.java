package dev.rekon.web;

import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;

import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;

import io.quarkus.vertx.http.runtime.RouteConstants;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * Stands before Funqy on the CloudEvent endpoint {@code /} for every function: a structured CloudEvent without
 * its required attributes, or with an optional one that is null or not a string, is answered 400 here, because
 * Funqy fails on it with a 500 (which Knative would retry forever). The parsed event is left in the context
 * under {@link #STRUCTURED} for later guards.
 */
@Singleton
public class CloudEventEnvelopeGuard {

    /** Runs after the body handler, before the webhook routes and Funqy. */
    public static final int ORDER = RouteConstants.ROUTE_ORDER_UPLOAD_LIMIT - 20;
    /** Context key of the parsed structured CloudEvent ({@link JsonObject}). */
    public static final String STRUCTURED = "rekon.structured-cloudevent";

    static final List<String> REQUIRED = List.of("specversion", "id", "source", "type");
    /** Optional attributes Funqy reads as strings: present with another JSON type, they make it fail with a 500. */
    static final List<String> OPTIONAL = List.of("datacontenttype", "dataschema", "subject", "time");

    void install(@Observes Router router) {
        router.post("/").order(ORDER).handler(this::guard);
    }

    void guard(RoutingContext ctx) {
        String contentType = ctx.request().getHeader("Content-Type");
        if (ctx.request().getHeader("ce-type") == null && contentType != null
                && contentType.toLowerCase(Locale.ROOT).startsWith("application/cloudevents+json")) {
            JsonObject event = parse(ctx.body() == null ? null : ctx.body().buffer());
            String problem = event == null ? "a structured CloudEvent must be a JSON object" : problem(event);
            if (problem != null) {
                ErrorReplies.send(ctx, 400, "InvalidEvent", problem);
                return;
            }
            ctx.put(STRUCTURED, event);
        }
        ctx.next();
    }

    private static JsonObject parse(Buffer body) {
        try {
            return body == null || body.length() == 0 ? null : new JsonObject(body);
        } catch (RuntimeException notAJsonObject) {
            return null;
        }
    }

    /** What makes the envelope unusable, or null. */
    static String problem(JsonObject event) {
        for (String attribute : REQUIRED) {
            Object value = event.getValue(attribute);
            if (!(value instanceof String s) || s.isBlank()) {
                return "a structured CloudEvent needs the string attributes " + REQUIRED + "; '" + attribute + "' is missing";
            }
        }
        for (String optional : OPTIONAL) {
            if (event.containsKey(optional) && !(event.getValue(optional) instanceof String)) {
                return "the CloudEvent attribute '" + optional + "' must be a string when present (it is "
                        + (event.getValue(optional) == null ? "null" : "not a string") + ")";
            }
        }
        if (event.containsKey("time") && !isTime(event.getString("time"))) {
            return "the CloudEvent attribute 'time' must be an RFC 3339 time such as 2026-11-22T10:15:30Z";
        }
        if (event.containsKey("datacontenttype") && !isJson(event.getString("datacontenttype"))) {
            return "'datacontenttype' must be application/json (or absent)";
        }
        return null;
    }

    private static boolean isTime(String text) {
        try {
            OffsetDateTime.parse(text);
            return true;
        } catch (DateTimeParseException e) {
            return false;
        }
    }

    private static boolean isJson(String mediaType) {
        String m = mediaType.toLowerCase(Locale.ROOT).split(";", 2)[0].trim();
        return m.equals("application/json") || m.endsWith("+json");
    }
}
