package dev.rekon.webhooks;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.rekon.core.Decisions;
import dev.rekon.core.InvalidEventException;
import dev.rekon.core.TransientFailureException;
import io.quarkus.runtime.annotations.RegisterForReflection;
import io.quarkus.vertx.http.runtime.RouteConstants;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.Json;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * The plain HTTP endpoints {@code POST /webhooks/<endpoint>} (Docker Hub: {@code /webhooks/dockerhub/<token>}).
 * Checks, in order: body size (413), authentication (401), content type (415), JSON (400), payload shape (400);
 * only then are the pushes dispatched (200 with every reply; 503 when a dependency failed, so the sender retries).
 * Each reply, or the failure, is recorded with the {@link Decisions} as {@code <endpoint>.push}.
 */
@Singleton
public class WebhookRoutes {

    private static final Logger LOG = Logger.getLogger(WebhookRoutes.class);
    /**
     * After Quarkus' body handler, before Funqy's routes (which get the first free orders from 0); every webhook
     * route uses it, and the {@code /webhooks/*} catch-all comes right after.
     */
    public static final int ORDER = RouteConstants.ROUTE_ORDER_UPLOAD_LIMIT - 10;

    /** The git push endpoint ({@code dev.rekon.webhooks.git}), named here so the catch-all's 404 lists it. */
    public static final String GIT_PATH = "/webhooks/git";

    /** The answer to one webhook request. */
    @RegisterForReflection
    public record Answer(String endpoint, List<PushDispatcher.Routed> pushes, List<Delivery.Ignored> ignored) {
    }

    @Inject
    Config config;

    @Inject
    PushDispatcher dispatcher;

    @Inject
    Decisions decisions;

    @ConfigProperty(name = "rekon.webhooks.max-body-bytes", defaultValue = "1048576")
    int maxBodyBytes;

    private WebhookAuthenticator authenticator;
    private ObjectMapper json;

    @PostConstruct
    void init() {
        authenticator = new WebhookAuthenticator(name -> config.getOptionalValue(name, String.class));
        json = new ObjectMapper();
        json.getFactory().setStreamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(64).build());
    }

    WebhookAuthenticator authenticator() {
        return authenticator;
    }

    void install(@Observes Router router) {
        for (WebhookFormat format : WebhookFormat.values()) {
            router.post(format.path()).order(ORDER).blockingHandler(ctx -> handle(format, ctx, null), false);
            if (format.auth() == WebhookFormat.Auth.PATH_TOKEN) {
                router.post(format.path() + "/:token").order(ORDER)
                        .blockingHandler(ctx -> handle(format, ctx, ctx.pathParam("token")), false);
            }
        }
        router.route("/webhooks/*").order(ORDER + 1).handler(ctx -> end(ctx, 404, "NoWebhookEndpoint",
                "POST to one of " + java.util.stream.Stream.concat(java.util.Arrays.stream(WebhookFormat.values())
                        .map(WebhookFormat::path), java.util.stream.Stream.of(GIT_PATH)).toList()));
    }

    void handle(WebhookFormat format, RoutingContext ctx, String pathToken) {
        Buffer body = ctx.body() == null ? null : ctx.body().buffer();
        byte[] bytes = body == null ? new byte[0] : body.getBytes();
        if (bytes.length > maxBodyBytes) {
            end(ctx, 413, "BodyTooLarge", "the body has " + bytes.length + " bytes; this endpoint accepts at most "
                    + maxBodyBytes + " (rekon.webhooks.max-body-bytes)");
            return;
        }
        Map<String, String> headers = headers(ctx);
        Optional<String> refusal = authenticator.refusal(format, headers, bytes, pathToken);
        if (refusal.isPresent()) {
            LOG.warnf("refused %s webhook from %s: %s", format.key(), ctx.request().remoteAddress(), refusal.get());
            end(ctx, 401, "Unauthorized", refusal.get());
            return;
        }
        if (!format.accepts(headers.get("content-type"))) {
            end(ctx, 415, "UnsupportedMediaType", "Content-Type '" + headers.get("content-type") + "' is not one of "
                    + format.contentTypes());
            return;
        }
        try {
            Delivery delivery = format.parser().parse(parse(bytes), headers);
            List<PushDispatcher.Routed> routed = new ArrayList<>();
            for (ImagePushed push : delivery.pushes()) {
                routed.add(dispatcher.dispatch(push));
            }
            String type = decisionType(format);
            routed.forEach(r -> r.replies().forEach(reply -> decisions.record(type, reply)));
            ctx.response().setStatusCode(200).putHeader("Content-Type", "application/json")
                    .end(Json.encode(new Answer(format.key(), routed, delivery.ignored())));
        } catch (InvalidEventException e) {
            decisions.record(decisionType(format), "invalid", "InvalidEvent", e.getMessage(), List.of());
            end(ctx, 400, "InvalidEvent", e.getMessage());
        } catch (TransientFailureException e) {
            LOG.warnf("transient failure on %s webhook: %s", format.key(), e.getMessage());
            decisions.record(decisionType(format), "transient", "TransientFailure", e.getMessage(), List.of());
            end(ctx, 503, "TransientFailure", e.getMessage() + "; retry the delivery");
        }
    }

    /** The type a registry push's decisions are recorded under: {@code harbor.push}, ... */
    static String decisionType(WebhookFormat format) {
        return format.key() + ".push";
    }

    JsonNode parse(byte[] bytes) {
        return object(json, bytes);
    }

    /** A webhook body as a JSON object; anything else is bad input (400) saying why. */
    public static JsonNode object(ObjectMapper json, byte[] bytes) {
        try {
            JsonNode node = json.readTree(bytes);
            if (node == null || !node.isObject()) {
                throw new InvalidEventException("the body must be a JSON object");
            }
            return node;
        } catch (JacksonException e) {
            throw new InvalidEventException("the body is not valid JSON: " + e.getOriginalMessage());
        } catch (java.io.IOException e) {
            throw new InvalidEventException("the body could not be read: " + e.getMessage());
        }
    }

    static Map<String, String> headers(RoutingContext ctx) {
        Map<String, String> headers = new HashMap<>();
        ctx.request().headers().forEach(h -> headers.putIfAbsent(h.getKey().toLowerCase(Locale.ROOT), h.getValue()));
        return headers;
    }

    static void end(RoutingContext ctx, int status, String error, String message) {
        dev.rekon.web.ErrorReplies.send(ctx, status, error, message);
    }
}
