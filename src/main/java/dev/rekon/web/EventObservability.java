package dev.rekon.web;

import java.util.Locale;
import java.util.regex.Pattern;

import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.jboss.logging.Logger;
import org.jboss.logging.MDC;

import dev.rekon.cluster.ColdStartGate;
import dev.rekon.core.Decisions;
import dev.rekon.core.Outcome;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * Observes every CloudEvent posted to the function endpoint: counts it in {@code rekon.events} by type and
 * outcome ({@code applied}, {@code unchanged}, {@code rejected} from the reply; {@code invalid} 400,
 * {@code unrouted} 404/409, {@code transient} 503, {@code error} otherwise), puts its {@code traceparent}
 * extension into the log MDC, logs one line per event, and records its outcome with the {@link Decisions}. Types
 * outside Rekon's own families count as {@code other}, so that senders cannot grow the metric without bound.
 */
@Singleton
public class EventObservability {

    static final String COUNTER = "rekon.events";
    static final String MDC_KEY = "traceparent";
    private static final Logger LOG = Logger.getLogger(EventObservability.class);
    private static final Pattern KNOWN_TYPE = Pattern.compile(
            "(dev\\.knative\\.apiserver|dev\\.rekon|harbor)\\.[a-z.]{1,60}");

    @Inject
    MeterRegistry registry;

    @Inject
    Decisions decisions;

    void install(@Observes Router router) {
        router.route("/").order(Integer.MIN_VALUE + 1).handler(this::observe);
    }

    void observe(RoutingContext ctx) {
        String contentType = ctx.request().getHeader("Content-Type");
        boolean structured = contentType != null && contentType.startsWith("application/cloudevents+json");
        if (!structured && !ctx.request().headers().contains("ce-id")) {
            ctx.next();
            return;
        }
        ColdStartGate.eventReceived();
        String traceparent = traceparent(ctx);
        if (traceparent != null) {
            MDC.put(MDC_KEY, traceparent); // the request's own context: logs made while handling it carry it
        }
        ctx.addHeadersEndHandler(v -> record(ctx, structured, traceparent));
        ctx.next();
    }

    private void record(RoutingContext ctx, boolean structured, String traceparent) {
        int status = ctx.response().getStatusCode();
        OutcomeCapture.Captured replied = OutcomeCapture.take();
        String outcome = outcome(status, replied == null ? null : replied.outcome());
        String type = type(ctx, structured);
        registry.counter(COUNTER, "type", type, "outcome", outcome).increment();
        ReplyFacts facts = ReplyFacts.of(replied == null ? null : replied.reply(), ctx.request().headers());
        decisions.record(type, outcome, facts.reason(), facts.message(), facts.objects());
        if (traceparent != null) {
            MDC.put(MDC_KEY, traceparent); // this may run on the worker thread that wrote the reply
        }
        ColdStartGate.eventAnswered();
        try {
            // Concatenated, not infof: java.util.Formatter made a DecimalFormatSymbols for every event's line.
            LOG.info("event " + type + ": HTTP " + status + ", " + outcome);
        } finally {
            if (traceparent != null) {
                MDC.remove(MDC_KEY);
            }
        }
    }

    static String outcome(int status, Outcome replied) {
        return switch (status) {
            case 200 -> replied == null ? "ok" : replied.wire();
            case 400, 413, 415, 406 -> "invalid";
            case 404, 409 -> "unrouted";
            case 503 -> "transient";
            default -> "error";
        };
    }

    static String type(RoutingContext ctx, boolean structured) {
        String type = ctx.request().getHeader("ce-type");
        if (structured && type == null && ctx.body() != null && ctx.body().available()) {
            try {
                type = new JsonObject(ctx.body().buffer()).getString("type");
            } catch (RuntimeException notJson) {
                type = null;
            }
        }
        if (type == null) {
            return "none";
        }
        return KNOWN_TYPE.matcher(type).matches() ? type.toLowerCase(Locale.ROOT) : "other";
    }

    /** The CloudEvents distributed-tracing extension: a ce-traceparent header, or the W3C traceparent header. */
    static String traceparent(RoutingContext ctx) {
        String value = ctx.request().getHeader("ce-traceparent");
        if (value == null) {
            value = ctx.request().getHeader("traceparent");
        }
        return value == null || value.length() > 128 ? null : value;
    }
}
