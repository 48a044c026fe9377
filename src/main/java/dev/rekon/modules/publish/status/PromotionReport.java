package dev.rekon.modules.publish.status;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.rekon.cluster.watch.SharedWatches;
import dev.rekon.modules.publish.PublishSettings;
import dev.rekon.modules.publish.plan.ChannelPromotion;
import dev.rekon.modules.publish.status.PromotionSection.PromotionRow;
import dev.rekon.status.AreaReport;
import dev.rekon.status.StatusRead;
import dev.rekon.status.StatusReport;

/**
 * The promotion rules' part of the page (area {@code modules}): for each channel a rule moves, the state the
 * promotion planner decided last, as it wrote it on the ModuleReleaseMeta (no API call: the release metas' watch),
 * blocked rules first. {@code GET /modules} plans the same rules again in report mode.
 */
@ApplicationScoped
public class PromotionReport implements AreaReport {

    private static final Comparator<PromotionRow> ORDER = Comparator.comparing((PromotionRow r) -> !r.problem())
            .thenComparing(PromotionRow::namespace).thenComparing(PromotionRow::module)
            .thenComparing(PromotionRow::channel);

    @Inject
    SharedWatches watches;

    @Inject
    PromotionFacet facet;

    @Inject
    PublishSettings settings;

    @Override
    public String area() {
        return "modules";
    }

    @Override
    public StatusReport addTo(StatusReport report, StatusRead read, String namespace, Instant now) {
        if (!settings.enabled()) {
            return report;
        }
        List<PromotionRow> rows = new ArrayList<>();
        for (PromotionFacet.Rules r : read.of(watches.of(facet), "ModuleReleaseMetas' promotion records")) {
            if (namespace == null || namespace.equals(r.namespace())) {
                r.states().forEach((channel, state) -> rows.add(row(r, channel, state)));
            }
        }
        rows.sort(ORDER);
        return report.withSection(new PromotionSection(PromotionSection.SCOPE,
                (int) rows.stream().filter(PromotionRow::problem).count(), rows));
    }

    /** A record {@code <State> (<Reason>): <message>}, as {@link ChannelPromotion#annotation()} writes it. */
    static PromotionRow row(PromotionFacet.Rules r, String channel, String record) {
        int open = record.indexOf(" (");
        int close = record.indexOf("): ", open + 1);
        String state = open > 0 && close > open ? record.substring(0, open) : record;
        String reason = open > 0 && close > open ? record.substring(open + 2, close) : null;
        String message = open > 0 && close > open ? record.substring(close + 3) : null;
        return new PromotionRow(r.namespace(), r.module(), channel, r.offers().get(channel), state, reason, message,
                r.soaks().get(channel), ChannelPromotion.BLOCKED.equals(state));
    }
}
