package dev.rekon.webhooks;

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
 * Authenticates Harbor CloudEvents posted to the CloudEvent endpoint {@code /} before Funqy sees them, with the
 * Harbor endpoint's secrets: a {@code harbor.*} type in binary mode ({@code ce-type}) or structured mode (the body's
 * {@code type}). Other CloudEvents pass untouched.
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
        Buffer body = ctx.body() == null ? null : ctx.body().buffer();
        String type = ctx.request().getHeader("ce-type");
        if (type == null) {
            type = structuredType(body);
        }
        if (type == null || !type.startsWith("harbor.")) {
            ctx.next();
            return;
        }
        Optional<String> refusal = routes.authenticator().refusal(WebhookFormat.HARBOR, WebhookRoutes.headers(ctx),
                body == null ? new byte[0] : body.getBytes(), null);
        if (refusal.isPresent()) {
            LOG.warnf("refused Harbor CloudEvent from %s: %s", ctx.request().remoteAddress(), refusal.get());
            WebhookRoutes.end(ctx, 401, "Unauthorized", refusal.get());
            return;
        }
        ctx.next();
    }

    private static String structuredType(Buffer body) {
        if (body == null || body.length() == 0) {
            return null;
        }
        try {
            Object type = new JsonObject(body).getValue("type");
            return type instanceof String s ? s : null;
        } catch (RuntimeException notAJsonObject) {
            // Funqy answers malformed CloudEvents itself; the guard only decides about Harbor ones.
            return null;
        }
    }
}
