package dev.rekon.status;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Clock;

import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import com.fasterxml.jackson.databind.ObjectMapper;

import dev.rekon.core.RekonConfig;
import dev.rekon.pipeline.NamespaceGuard;
import dev.rekon.web.CloudEventEnvelopeGuard;
import dev.rekon.web.ErrorReplies;
import io.quarkus.qute.Engine;
import io.quarkus.qute.Template;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * {@code GET /status} (JSON) and {@code GET /} (the same report as an HTML page): parse and check the query
 * ({@code ?namespace=} must be an allowed namespace, {@code ?area=} one of {@link StatusPlanner#AREAS} or an {@link AreaReport}'s own), check the
 * optional bearer token, and answer the report made from the watch caches: each area's rows are the plans the
 * one loop makes for its keys in report mode ({@link AreaReport}), so the page holds no decision of its own.
 * {@code POST /} stays Funqy's.
 */
@Singleton
public class StatusRoutes {

    /** Before Funqy's routes, which would otherwise take {@code GET /} as a function call. */
    static final int ORDER = CloudEventEnvelopeGuard.ORDER + 1;

    @Inject
    DecisionLog decisions;

    @Inject
    jakarta.enterprise.inject.Instance<AreaReport> areas;

    @Inject
    StatusConfig config;

    @Inject
    RekonConfig rekon;

    @Inject
    NamespaceGuard guard;

    @Inject
    ObjectMapper json;

    @Inject
    Template status;

    @Inject
    Engine engine;

    @Inject
    Clock clock;

    void install(@Observes Router router) {
        router.get("/status").order(ORDER).blockingHandler(ctx -> answer(ctx, false), false);
        router.get("/").order(ORDER).blockingHandler(ctx -> answer(ctx, true), false);
        router.route("/status").order(ORDER).handler(ctx -> ErrorReplies.methodNotAllowed(ctx, "GET"));
    }

    void answer(RoutingContext ctx, boolean html) {
        if (!authorized(ctx.request().getHeader("Authorization"))) {
            ctx.response().putHeader("WWW-Authenticate", "Bearer realm=\"rekon-status\"");
            ErrorReplies.send(ctx, 401, "Unauthorized", "rekon.status.token is set: send the header "
                    + "'Authorization: Bearer <token>'");
            return;
        }
        String namespace = blankToNull(ctx.request().getParam("namespace"));
        String area = blankToNull(ctx.request().getParam("area"));
        if (namespace != null && !guard.allows(namespace)) {
            ErrorReplies.send(ctx, 403, "NamespaceNotAllowed", rekon.namespacePolicy().refusal(namespace));
            return;
        }
        java.util.SortedSet<String> known = known();
        if (area != null && !known.contains(area)) {
            ErrorReplies.send(ctx, 400, "InvalidQuery", "area must be one of " + known
                    + " (or left out for all), not '" + area + "'");
            return;
        }
        try {
            StatusReport report = report(namespace, area);
            Buffer body = html ? Buffer.buffer(status.data("report", report).data("area", area)
                    .data("ownAreas", ownAreas(known)).data("sections", html(report)).render())
                    : Buffer.buffer(json.writeValueAsBytes(report));
            ctx.response().putHeader("Content-Type", html ? "text/html; charset=utf-8" : "application/json")
                    .putHeader("Cache-Control", "no-store").end(body);
        } catch (StatusRead.Loading e) {
            loading(ctx, html, e.getMessage());
        } catch (Exception e) {
            ctx.fail(e);
        }
    }

    /**
     * The report: every {@link AreaReport} the area asks for, each the plans its keys get from the loop in report
     * mode (read within one deadline), then this replica's decisions.
     */
    private StatusReport report(String namespace, String area) {
        java.time.Instant now = clock.instant();
        StatusRead read = new StatusRead();
        StatusReport report = StatusReport.empty(now, namespace);
        for (AreaReport a : areas.stream().sorted(java.util.Comparator.comparing(AreaReport::area)).toList()) {
            if (area == null || area.equals(a.area())) {
                report = a.addTo(report, read, namespace, now);
            }
        }
        report = StatusPlanner.plan(report, new StatusPlanner.Request(decisions.recent(), namespace, area, now));
        read.requireLoaded();
        return report.summarized(read.unavailable());
    }

    /** Each section's HTML, by the template its area keeps beside its record ({@link AreaSection}). */
    private java.util.List<String> html(StatusReport report) {
        return report.sections().stream().map(s -> engine.getTemplate(s.getClass().getSimpleName() + "/rows")
                .data("section", s).render()).toList();
    }

    /** The areas {@code ?area=} accepts: the page's own, and every {@link AreaReport}'s. */
    private java.util.SortedSet<String> known() {
        java.util.SortedSet<String> known = new java.util.TreeSet<>(StatusPlanner.AREAS);
        areas.forEach(a -> known.add(a.area()));
        return known;
    }

    /** The areas the page's navigation does not name itself: those that came with an area's own section. */
    private static java.util.List<String> ownAreas(java.util.SortedSet<String> known) {
        return known.stream().filter(a -> !StatusPlanner.AREAS.contains(a)).toList();
    }

    /** 503 with Retry-After: the page says it is loading and reloads itself, the JSON says what is still listing. */
    private static void loading(RoutingContext ctx, boolean html, String message) {
        ctx.response().putHeader("Retry-After", "2");
        if (!html) {
            ErrorReplies.send(ctx, 503, "StatusLoading", message);
            return;
        }
        String escaped = message.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
        ctx.response().setStatusCode(503).putHeader("Content-Type", "text/html; charset=utf-8")
                .putHeader("Cache-Control", "no-store").end("<!doctype html><html><head><meta charset=\"utf-8\">"
                        + "<meta http-equiv=\"refresh\" content=\"2\"><title>Rekon: loading</title></head><body>"
                        + "<h1>Rekon is loading</h1><p>" + escaped + "</p></body></html>");
    }

    /** Constant-time, so the comparison tells nothing about how much of a guess was right. */
    boolean authorized(String header) {
        if (config.token().filter(t -> !t.isBlank()).isEmpty()) {
            return true;
        }
        String presented = header != null && header.regionMatches(true, 0, "Bearer ", 0, 7) ? header.substring(7).trim() : "";
        return MessageDigest.isEqual(presented.getBytes(StandardCharsets.UTF_8),
                config.token().get().getBytes(StandardCharsets.UTF_8));
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.trim();
    }
}
