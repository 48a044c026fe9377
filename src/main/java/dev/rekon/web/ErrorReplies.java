package dev.rekon.web;

import java.util.Map;

import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import com.fasterxml.jackson.core.JsonProcessingException;

import dev.rekon.core.InvalidEventException;
import dev.rekon.core.TransientFailureException;
import io.vertx.core.json.Json;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * Turns every failure on the event path into an HTTP status Knative acts on correctly, with a JSON body
 * that says what to fix: 400 for a malformed event (not retried), 503 for a transient failure (retried).
 * Funqy's own statuses (404 no function, 409 several functions, 406 media type) get a message too.
 */
@Singleton
public class ErrorReplies {

    private static final Logger LOG = Logger.getLogger(ErrorReplies.class);
    static final String TOO_LARGE = "the request body is larger than quarkus.http.limits.max-body-size allows";

    void install(@Observes Router router) {
        router.route().order(Integer.MIN_VALUE).failureHandler(this::handle);
    }

    void handle(RoutingContext ctx) {
        if (ctx.response().ended() || ctx.response().headWritten()) {
            return;
        }
        Throwable failure = unwrap(ctx.failure());
        int status;
        String error;
        String message;
        if (failure instanceof InvalidEventException || failure instanceof JsonProcessingException) {
            status = 400;
            error = "InvalidEvent";
            message = failure instanceof InvalidEventException ? failure.getMessage()
                    : "the event data is not valid JSON: " + firstLine(failure.getMessage());
        } else if (failure instanceof dev.rekon.core.RefusedException refused) {
            // 422, not the API's own code: Knative retries 404 and 409, and this refusal will not change.
            status = 422;
            error = "ApiRefused";
            message = refused.getMessage();
            LOG.warnf("permanent API failure: %s", refused.getMessage());
        } else if (failure instanceof TransientFailureException) {
            status = 503;
            error = "TransientFailure";
            message = failure.getMessage() + "; the event will be redelivered";
            LOG.warnf("transient failure: %s", failure.getMessage());
        } else if (failure != null && ctx.statusCode() >= 400 && ctx.statusCode() < 500) {
            // A 4xx with a cause comes from the HTTP layer reading the request (the body handler's decoder, a body
            // over the limit): the sender's mistake, answered in Rekon's words rather than the framework's.
            status = ctx.statusCode();
            error = status == 413 ? "BodyTooLarge" : "UnreadableRequest";
            message = status == 413 ? TOO_LARGE : "the request body could not be read; Rekon reads JSON only "
                    + "(CloudEvents and registry webhooks)";
            LOG.debugf(failure, "request refused with %d", status);
        } else if (failure != null) {
            status = 500;
            error = "InternalError";
            message = failure.getClass().getSimpleName() + ": " + firstLine(failure.getMessage());
            LOG.error("unexpected failure", failure);
        } else {
            status = ctx.statusCode() < 400 ? 500 : ctx.statusCode();
            error = switch (status) {
                case 404 -> "NoFunction";
                case 409 -> "AmbiguousFunction";
                case 406, 415 -> "UnsupportedMediaType";
                case 413 -> "BodyTooLarge";
                default -> "HttpError";
            };
            message = switch (status) {
                case 404 -> "no function accepts this CloudEvent type (and kind); see the README for the event types";
                case 409 -> "more than one function accepts this CloudEvent; narrow its type or kind";
                case 406, 415 -> "send a CloudEvent: binary mode (ce-* headers) or structured mode "
                        + "(Content-Type: application/cloudevents+json)";
                case 413 -> TOO_LARGE;
                default -> "request failed with HTTP " + status;
            };
        }
        send(ctx, status, error, message);
    }

    /** The JSON error body every 4xx/5xx of Rekon carries: what went wrong, and what to fix. */
    public static void send(RoutingContext ctx, int status, String error, String message) {
        ctx.response().setStatusCode(status)
                .putHeader("Content-Type", "application/json")
                .end(Json.encode(Map.of("error", error, "message", message)));
    }

    /** A route that serves only {@code allowed}: 405 with {@code Allow}, in Rekon's shape rather than an empty body. */
    public static void methodNotAllowed(RoutingContext ctx, String allowed) {
        ctx.response().putHeader("Allow", allowed);
        send(ctx, 405, "MethodNotAllowed", ctx.request().path() + " answers " + allowed + " only, not "
                + ctx.request().method());
    }

    /** Funqy and Jackson wrap what the functions throw; the reply is decided by the innermost known cause. */
    static Throwable unwrap(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof InvalidEventException || t instanceof TransientFailureException
                    || t instanceof JsonProcessingException || t instanceof dev.rekon.core.RefusedException) {
                return t;
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return failure;
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
