package dev.rekon.promotions.status;

import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.rekon.pipeline.LastPlanRows;
import dev.rekon.pipeline.LastPlans;
import dev.rekon.status.AreaReport;
import dev.rekon.status.StatusRead;
import dev.rekon.status.StatusReport;

/**
 * The ImagePromotions' part of the page (area {@value #AREA}): what each promotion's last plan on this replica
 * decided ({@link LastPlans}, no API call: a stage may be in another cluster, and a page view reads none), problems
 * first, each soak's time left counted from the page's now.
 */
@ApplicationScoped
public class PromotionStagesReport implements AreaReport {

    public static final String AREA = "imagepromotions";

    /** The rows of the last plans, each soak's time left counted from the page's now. */
    public static final LastPlanRows<PromotionStages> ROWS = new LastPlanRows<>(AREA,
            (last, now) -> Optional.of(last.remembered().at(now, last.carriedOut())), PromotionStages::namespace,
            Comparator.comparing((PromotionStages p) -> !p.problem()).thenComparing(PromotionStages::namespace)
                    .thenComparing(PromotionStages::name));

    @Inject
    LastPlans plans;

    @Override
    public String area() {
        return AREA;
    }

    @Override
    public StatusReport addTo(StatusReport report, StatusRead read, String namespace, Instant now) {
        return report.withSection(section(plans.<PromotionStages>of(AREA), namespace, now));
    }

    /** The section of these last plans, in that namespace (null: all). */
    public static ImagePromotionSection section(List<LastPlans.Last<PromotionStages>> last, String namespace,
            Instant now) {
        List<PromotionStages> rows = ROWS.rows(last, namespace, now);
        return new ImagePromotionSection(ImagePromotionSection.SCOPE,
                (int) rows.stream().filter(PromotionStages::problem).count(), rows);
    }
}
