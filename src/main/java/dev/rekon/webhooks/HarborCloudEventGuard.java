package dev.rekon.webhooks;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * Stands before Funqy on the CloudEvent endpoint {@code /}. A {@code harbor.*} CloudEvent (type in {@code ce-type}
 * or in a structured body) must carry the Harbor endpoint's credentials (401 otherwise). A structured CloudEvent
 * without its required attributes is answered 400 here, because Funqy fails on it with a 500.
 */
@Singleton
public class HarborCloudEventGuard {

    private static final Logger LOG = Logger.getLogger(HarborCloudEventGuard.class);
    static final List<String> REQUIRED = List.of("specversion", "id", "source", "type");
    /** Optional attributes Funqy reads as strings: present with another JSON type, they make it fail with a 500. */
    static final List<String> OPTIONAL = List.of("datacontenttype", "dataschema", "subject", "time");

    @Inject
    WebhookRoutes routes;

    void install(@Observes Router router) {
        router.post("/").order(WebhookRoutes.ORDER).handler(this::guard);
    }

    void guard(RoutingContext ctx) {
        Buffer body = ctx.body() == null ? null : ctx.body().buffer();
        String type = ctx.request().getHeader("ce-type");
        String contentType = ctx.request().getHeader("Content-Type");
        if (type == null && contentType != null && contentType.toLowerCase(Locale.ROOT).startsWith("application/cloudevents+json")) {
            JsonObject event = structured(body);
            String problem = event == null ? "a structured CloudEvent must be a JSON object" : problem(event);
            if (problem != null) {
                WebhookRoutes.end(ctx, 400, "InvalidEvent", problem);
                return;
            }
            type = event.getString("type");
        }
        if (type != null && type.startsWith("harbor.")) {
            Optional<String> refusal = routes.authenticator().refusal(WebhookFormat.HARBOR, WebhookRoutes.headers(ctx),
                    body == null ? new byte[0] : body.getBytes(), null);
            if (refusal.isPresent()) {
                LOG.warnf("refused Harbor CloudEvent from %s: %s", ctx.request().remoteAddress(), refusal.get());
                WebhookRoutes.end(ctx, 401, "Unauthorized", refusal.get());
                return;
            }
        }
        ctx.next();
    }

    private static JsonObject structured(Buffer body) {
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
        if (event.getString("type").startsWith("harbor.") && !(event.getValue("data") instanceof JsonObject)) {
            return "a Harbor CloudEvent needs its 'data' as a JSON object";
        }
        return null;
    }

    private static boolean isTime(String text) {
        try {
            java.time.OffsetDateTime.parse(text);
            return true;
        } catch (java.time.format.DateTimeParseException e) {
            return false;
        }
    }

    private static boolean isJson(String mediaType) {
        String m = mediaType.toLowerCase(Locale.ROOT).split(";", 2)[0].trim();
        return m.equals("application/json") || m.endsWith("+json");
    }
}
