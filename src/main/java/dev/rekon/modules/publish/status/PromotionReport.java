package dev.rekon.modules.publish.status;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.rekon.cluster.watch.SharedWatches;
import dev.rekon.modules.publish.PublishService;
import dev.rekon.modules.publish.PublishSettings;
import dev.rekon.modules.publish.plan.ChannelPromotion;
import dev.rekon.modules.publish.plan.PublishedMeta;
import dev.rekon.modules.publish.status.PromotionSection.PromotionRow;
import dev.rekon.modules.publish.watch.PublishFacets;
import dev.rekon.status.AreaReport;
import dev.rekon.status.StatusRead;
import dev.rekon.status.StatusReport;

/**
 * The promotion rules' part of the page (area {@code modules}): for each channel a rule moves, where it stands
 * now, planned by the one loop in report mode from the watches ({@link PublishService#promotionReport}, as
 * {@code GET /modules} plans it: no API call), blocked rules first.
 */
@ApplicationScoped
public class PromotionReport implements AreaReport {

    private static final Comparator<PromotionRow> ORDER = Comparator.comparing((PromotionRow r) -> !r.problem())
            .thenComparing(PromotionRow::namespace).thenComparing(PromotionRow::module)
            .thenComparing(PromotionRow::channel);

    @Inject
    SharedWatches watches;

    @Inject
    PublishFacets.Metas metas;

    @Inject
    PublishSettings settings;

    @Inject
    PublishService service;

    @Override
    public String area() {
        return "modules";
    }

    @Override
    public StatusReport addTo(StatusReport report, StatusRead read, String namespace, Instant now) {
        if (!settings.enabled() || settings.promotions().isEmpty()
                || (namespace != null && !namespace.equals(settings.namespace()))) {
            return report;
        }
        List<PromotionRow> rows = new ArrayList<>();
        for (PublishedMeta m : read.of(watches.of(metas), "ModuleReleaseMetas")) {
            if (m.ocmComponentName() != null && settings.namespace().equals(m.view().namespace())) {
                service.promotionReport(m.view().name()).ifPresent(plan -> plan.report().promotions()
                        .forEach(p -> rows.add(row(settings.namespace(), m.view().name(), p))));
            }
        }
        rows.sort(ORDER);
        return report.withSection(new PromotionSection(PromotionSection.SCOPE,
                (int) rows.stream().filter(PromotionRow::problem).count(), rows));
    }

    /** A rule's row: its state, reason and message, and since when its candidate soaks (as the plan records it). */
    static PromotionRow row(String namespace, String module, ChannelPromotion p) {
        return new PromotionRow(namespace, module, p.channel(), p.offers(), p.state(), p.reason(), p.message(),
                p.since() == null ? null : p.candidate() + "@" + p.since(), ChannelPromotion.BLOCKED.equals(p.state()));
    }
}
