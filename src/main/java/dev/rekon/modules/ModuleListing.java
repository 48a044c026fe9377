package dev.rekon.modules;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import com.fasterxml.jackson.databind.ObjectMapper;

import dev.rekon.cluster.InstalledKinds;
import dev.rekon.modules.publish.PublishService;
import dev.rekon.modules.publish.plan.ChannelPromotion;
import dev.rekon.modules.publish.plan.KymaFollower;
import dev.rekon.modules.publish.plan.ModuleReport;
import dev.rekon.modules.publish.plan.PromotionPlan;
import dev.rekon.modules.status.ModuleSection.ModuleRow;
import dev.rekon.status.StatusRead;
import dev.rekon.web.ErrorReplies;
import io.quarkus.runtime.annotations.RegisterForReflection;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * {@code GET /modules}: each installed module (per channel its Deployments follow) with its running
 * version, whether it is enabled, the newest version a ModuleReleaseMeta offers on that channel, and which of
 * its Deployments are suspended or were changed by hand (their images differ from what Rekon last applied), as
 * the status page's module rows have them ({@link dev.rekon.modules.ModuleReport}: the watches, no API call of
 * its own; those the module lifecycle installed left out);
 * then each published module ({@code "published": true}) as the promotion plan reports it in report mode
 * ({@link PublishService#promotionReport}): its versions with their templates and signature state, what each channel
 * offers, which Kymas run which version, and where each promotion stands. Without Kyma's CRDs it answers 404
 * {@code NotInstalled}, naming them.
 */
@Singleton
@RegisterForReflection(targets = { ModuleReport.VersionRow.class, KymaFollower.class, ChannelPromotion.class })
public class ModuleListing {

    /** One row of the listing. */
    @RegisterForReflection
    public record Entry(String module, String channel, String version, boolean enabled, String newestOnChannel,
            List<String> deployments, List<String> suspended, List<String> manualChanges) {
    }

    /** One published module of the listing. */
    @RegisterForReflection
    public record Published(String module, boolean published, String namespace, String component,
            Map<String, String> channels, List<ModuleReport.VersionRow> versions, List<KymaFollower> kymas,
            List<ChannelPromotion> promotions) {

        static Published of(ModuleReport r) {
            return new Published(r.module(), true, r.namespace(), r.component(), r.channels(), r.versions(), r.kymas(),
                    r.promotions());
        }
    }

    @Inject
    dev.rekon.modules.ModuleReport rows;

    @Inject
    PublishService publication;

    @Inject
    ObjectMapper json;

    @Inject
    InstalledKinds kinds;

    void install(@Observes Router router) {
        // Before Quarkus' upload limit (order -2), which would answer a GET with a large body 413 and no message.
        int order = dev.rekon.web.CloudEventEnvelopeGuard.ORDER + 1;
        router.get("/modules").order(order).blockingHandler(this::handle);
        router.route("/modules").order(order).handler(ctx -> ErrorReplies.methodNotAllowed(ctx, "GET"));
    }

    void handle(RoutingContext ctx) {
        Optional<String> notInstalled = kinds.notInstalled("GET /modules (the releases Kyma offers per module)",
                InstalledKinds.KYMA_KINDS);
        if (notInstalled.isPresent()) {
            ErrorReplies.send(ctx, 404, "NotInstalled", notInstalled.get());
            return;
        }
        try {
            List<Object> rows = new ArrayList<>(list(new StatusRead()));
            published().forEach(r -> rows.add(Published.of(r)));
            String body = json.writeValueAsString(rows);
            ctx.response().putHeader("Content-Type", "application/json").end(body);
        } catch (StatusRead.Loading e) {
            ctx.response().putHeader("Retry-After", "2");
            ErrorReplies.send(ctx, 503, "StatusLoading", e.getMessage());
        } catch (Exception e) {
            ctx.fail(e);
        }
    }

    /** The page's module rows as the listing's entries, by module and channel. */
    public List<Entry> list(StatusRead read) {
        List<ModuleRow> found = rows.rows(rows.watched(read, false), null);
        read.requireLoaded();
        return found.stream().sorted(Comparator.comparing(ModuleRow::module).thenComparing(ModuleRow::channel))
                .map(r -> new Entry(r.module(), r.channel(), r.version(), r.enabled(), r.newestOnChannel(),
                        r.deployments(), r.suspended(), r.manualChanges())).toList();
    }

    /**
     * Each published module as the promotion plan reports it (nothing written), for this listing and the status
     * page; none while publication is off or Kymas are not served.
     */
    public List<ModuleReport> published() {
        if (!publication.enabled() || kinds.notInstalled("published modules", List.of(InstalledKinds.KYMA)).isPresent()) {
            return List.of();
        }
        return publication.published().stream().map(publication::promotionReport).flatMap(Optional::stream)
                .map(PromotionPlan::report).toList();
    }
}
