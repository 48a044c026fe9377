package dev.rekon.promotions.status;

import java.time.Instant;
import java.util.Comparator;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

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

    private static final Comparator<PromotionStages> ORDER = Comparator.comparing((PromotionStages p) -> !p.problem())
            .thenComparing(PromotionStages::namespace).thenComparing(PromotionStages::name);

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
        List<PromotionStages> rows = last.stream().map(l -> l.remembered().at(now, l.carriedOut()))
                .filter(p -> namespace == null || namespace.equals(p.namespace())).sorted(ORDER).toList();
        return new ImagePromotionSection(ImagePromotionSection.SCOPE,
                (int) rows.stream().filter(PromotionStages::problem).count(), rows);
    }
}
