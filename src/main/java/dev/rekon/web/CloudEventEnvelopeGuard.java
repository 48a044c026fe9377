package dev.rekon.web;

import java.util.List;
import java.util.Locale;

import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;

import io.cloudevents.SpecVersion;
import io.quarkus.vertx.http.runtime.RouteConstants;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * Stands before Funqy on the CloudEvent endpoint {@code /} for every function, so that nothing a sender got wrong
 * becomes a 5xx (which Knative would redeliver forever) or a misleading 404. Structured mode is validated with the
 * CloudEvents SDK ({@link StructuredCloudEvents}); binary mode (Funqy's own) needs the four required
 * {@code ce-} headers with a known {@code ce-specversion} (400 naming what is missing), JSON data (415 naming the
 * accepted content types) and that data as a JSON object (400). A request that is neither is 400; a batch
 * ({@value #BATCH_TYPE}) is 415, saying batches are not accepted. The parsed
 * structured event is left in the context under {@link #STRUCTURED} for later guards.
 */
@Singleton
public class CloudEventEnvelopeGuard {

    /** Runs after the body handler, before the webhook routes and Funqy. */
    public static final int ORDER = RouteConstants.ROUTE_ORDER_UPLOAD_LIMIT - 20;
    /** Context key of the parsed structured CloudEvent ({@link JsonObject}). */
    public static final String STRUCTURED = "rekon.structured-cloudevent";

    static final String STRUCTURED_TYPE = "application/cloudevents+json";
    static final String BATCH_TYPE = "application/cloudevents-batch+json";
    /** A batch is refused whole: each event is its own reconcile with its own reply, which a batch has no room for. */
    static final Refusal BATCH_REFUSED = new Refusal(415, "UnsupportedMediaType", "batched CloudEvents ("
            + BATCH_TYPE + ") are not accepted: send each event in a request of its own, in binary mode (headers"
            + " ce-specversion, ce-id, ce-source, ce-type; data as application/json) or in structured mode"
            + " (Content-Type: application/cloudevents+json)");
    static final List<String> REQUIRED = List.of("specversion", "id", "source", "type");
    static final String MODES = "send a CloudEvent in binary mode (headers ce-specversion, ce-id, ce-source, ce-type;"
            + " data as application/json) or in structured mode (Content-Type: " + STRUCTURED_TYPE + ")";

    void install(@Observes Router router) {
        router.post("/").order(ORDER).handler(this::guard);
    }

    void guard(RoutingContext ctx) {
        MultiMap headers = ctx.request().headers();
        byte[] body = ctx.body() == null || ctx.body().buffer() == null ? new byte[0] : ctx.body().buffer().getBytes();
        String mediaType = mediaType(headers.get("Content-Type"));
        boolean structured = headers.get("ce-type") == null && STRUCTURED_TYPE.equals(mediaType);
        Refusal refusal = BATCH_TYPE.equals(mediaType) ? BATCH_REFUSED
                : structured ? structured(body) : binary(headers, mediaType, body);
        if (refusal != null) {
            ErrorReplies.send(ctx, refusal.status(), refusal.error(), refusal.message());
            return;
        }
        if (structured) {
            ctx.put(STRUCTURED, new JsonObject(Buffer.buffer(body)));
        }
        ctx.next();
    }

    record Refusal(int status, String error, String message) {
        static Refusal invalid(String message) {
            return new Refusal(400, "InvalidEvent", message);
        }
    }

    static Refusal structured(byte[] body) {
        String problem = StructuredCloudEvents.problem(body);
        return problem == null ? null : Refusal.invalid(problem);
    }

    static Refusal binary(MultiMap headers, String mediaType, byte[] body) {
        if (REQUIRED.stream().allMatch(a -> headers.get("ce-" + a) == null)) {
            return Refusal.invalid("this is not a CloudEvent: " + MODES);
        }
        for (String attribute : REQUIRED) {
            String value = headers.get("ce-" + attribute);
            if (value == null || value.isBlank()) {
                return Refusal.invalid("the CloudEvent header ce-" + attribute + " is " + (value == null ? "missing" : "empty")
                        + "; a binary-mode CloudEvent needs ce-specversion, ce-id, ce-source and ce-type");
            }
        }
        try {
            SpecVersion.parse(headers.get("ce-specversion").trim());
        } catch (RuntimeException unknown) {
            return Refusal.invalid("ce-specversion '" + headers.get("ce-specversion") + "' is not a CloudEvents version"
                    + " Rekon reads; send 1.0");
        }
        if (mediaType == null ? body.length > 0 : !funqyReadsData(headers.get("Content-Type"))) {
            return new Refusal(415, "UnsupportedMediaType", "Content-Type '" + headers.get("Content-Type")
                    + "' is not accepted: " + MODES);
        }
        return body.length == 0 ? null : objectData(body);
    }

    /**
     * Funqy reads binary-mode data only under a Content-Type that begins with {@code application/json}, as written
     * (case and all); any other, even a {@code +json} one, made its data accessor throw, which answered 500.
     */
    static boolean funqyReadsData(String contentType) {
        return contentType.startsWith("application/json");
    }

    private static Refusal objectData(byte[] body) {
        Object data;
        try {
            data = Json.decodeValue(Buffer.buffer(body));
        } catch (DecodeException notJson) {
            return null; // Funqy's JSON error becomes a 400 that quotes the parser (ErrorReplies)
        }
        return data instanceof JsonObject ? null : Refusal.invalid("the CloudEvent's data must be a JSON object, not "
                + (data == null ? "null" : data instanceof String ? "a string" : data instanceof io.vertx.core.json.JsonArray
                        ? "an array" : "a " + data.getClass().getSimpleName().toLowerCase(Locale.ROOT)));
    }

    private static String mediaType(String contentType) {
        return contentType == null ? null : contentType.toLowerCase(Locale.ROOT).split(";", 2)[0].trim();
    }
}
