package dev.rekon.webhooks;

import java.util.Optional;

import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import dev.rekon.web.CloudEventEnvelopeGuard;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * Stands before Funqy on the CloudEvent endpoint {@code /}: a {@code harbor.*} CloudEvent (type in {@code ce-type}
 * or in a structured body, already checked by {@link CloudEventEnvelopeGuard}) must carry the Harbor endpoint's
 * credentials (401 otherwise) and, structured, its data as a JSON object.
 */
@Singleton
public class HarborCloudEventGuard {

    private static final Logger LOG = Logger.getLogger(HarborCloudEventGuard.class);

    @Inject
    WebhookRoutes routes;

    void install(@Observes Router router) {
        router.post("/").order(WebhookRoutes.ORDER).handler(this::guard);
    }

    void guard(RoutingContext ctx) {
        JsonObject structured = ctx.get(CloudEventEnvelopeGuard.STRUCTURED);
        String type = structured != null ? structured.getString("type") : ctx.request().getHeader("ce-type");
        if (type != null && type.startsWith("harbor.")) {
            if (structured != null && !(structured.getValue("data") instanceof JsonObject)) {
                WebhookRoutes.end(ctx, 400, "InvalidEvent", "a Harbor CloudEvent needs its 'data' as a JSON object");
                return;
            }
            Buffer body = ctx.body() == null ? null : ctx.body().buffer();
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
}
