package dev.rekon.web;

import java.util.List;
import java.util.Locale;

import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;

import io.quarkus.vertx.http.runtime.RouteConstants;
import io.vertx.core.MultiMap;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * Decides that no request body is ever decoded as a form: a body declared {@code application/x-www-form-urlencoded}
 * or {@code multipart/*} is buffered as raw bytes, like any other, and reaches Rekon's own checks (size,
 * authentication, envelope, content type) with its Content-Type as sent. Rekon serves no form.
 * <p>
 * Why around the body handler, and not later: Vert.x's body handler decodes such bodies while it reads them, and its
 * decoder fails on its own (a field over {@code quarkus.http.limits.max-form-attribute-size}, a malformed multipart,
 * too many fields) before any route of Rekon runs; those failures reached the failure handler as framework
 * exceptions. Raising the decoder's limits would only move the edge, and a route filter after the body handler comes
 * too late. So the Content-Type is swapped for {@code application/octet-stream} just before the body handler (which
 * then only buffers, under {@code quarkus.http.limits.max-body-size}) and put back just after it.
 */
@Singleton
public class FormBodyShield {

    /** Context key of the Content-Type headers as sent, while the body handler reads the body. */
    static final String SENT = "rekon.sent-content-type";
    static final String RAW = "application/octet-stream";

    void install(@Observes Router router) {
        router.route().order(RouteConstants.ROUTE_ORDER_BODY_HANDLER - 1).handler(this::hide);
        router.route().order(RouteConstants.ROUTE_ORDER_BODY_HANDLER + 1).handler(this::restore);
    }

    void hide(RoutingContext ctx) {
        MultiMap headers = ctx.request().headers();
        List<String> sent = headers.getAll("Content-Type");
        if (sent.stream().anyMatch(FormBodyShield::decodedAsForm)) {
            ctx.put(SENT, sent);
            headers.set("Content-Type", RAW);
        }
        ctx.next();
    }

    void restore(RoutingContext ctx) {
        List<String> sent = ctx.get(SENT);
        if (sent != null) {
            ctx.request().headers().set("Content-Type", sent);
            ctx.remove(SENT);
        }
        ctx.next();
    }

    /** What the body handler would decode: it compares the lower-cased header's start with these. */
    static boolean decodedAsForm(String contentType) {
        String c = contentType.trim().toLowerCase(Locale.ROOT);
        return c.startsWith("application/x-www-form-urlencoded") || c.startsWith("multipart/");
    }
}
