package dev.rekon.promotions.status;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.rekon.cluster.watch.SharedWatches;
import dev.rekon.pipeline.ReconcileLoop;
import dev.rekon.promotions.PromotionKey;
import dev.rekon.promotions.PromotionReconciler;
import dev.rekon.promotions.view.ImagePromotionView;
import dev.rekon.promotions.watch.ImagePromotionFacet;
import dev.rekon.status.AreaReport;
import dev.rekon.status.StatusRead;
import dev.rekon.status.StatusReport;

/**
 * The ImagePromotions' part of the page (area {@value #AREA}): every one the watch holds, planned now by the one loop
 * in report mode ({@link PromotionReconciler#page}), with no API call and no read of any stage's cluster: from its
 * watched spec and status and the source Image and stages as its last attempt left them; problems first, each soak's
 * time left counted from the page's now. A promotion this process has not read yet says so.
 */
@ApplicationScoped
public class PromotionStagesReport implements AreaReport {

    public static final String AREA = "imagepromotions";

    /** Problem rows first, then by namespace and name. */
    public static final Comparator<PromotionStages> ORDER = Comparator.comparing((PromotionStages p) -> !p.problem())
            .thenComparing(PromotionStages::namespace).thenComparing(PromotionStages::name);

    @Inject
    SharedWatches watches;

    @Inject
    ImagePromotionFacet facet;

    @Inject
    ReconcileLoop loop;

    @Inject
    PromotionReconciler reconciler;

    @Override
    public String area() {
        return AREA;
    }

    @Override
    public StatusReport addTo(StatusReport report, StatusRead read, String namespace, Instant now) {
        var page = reconciler.page(now);
        List<PromotionStages> rows = new ArrayList<>();
        for (ImagePromotionView p : read.of(watches.of(facet), "ImagePromotions")) {
            if (namespace != null && !namespace.equals(p.namespace())) {
                continue;
            }
            Optional<List<String>> unread = reconciler.unread(p);
            if (unread.isPresent()) {
                rows.add(PromotionRows.notRead(p, unread.get(), now));
                continue;
            }
            loop.plan(page, PromotionKey.seen(p, java.util.Set.of())).ifPresent(plan -> rows.add(PromotionRows.row(plan, now)));
        }
        return report.withSection(section(rows, namespace, now));
    }

    /** The section of these rows, in that namespace (null: all), each soak's time left counted from {@code now}. */
    public static ImagePromotionSection section(List<PromotionStages> rows, String namespace, Instant now) {
        List<PromotionStages> shown = rows.stream().filter(r -> namespace == null || namespace.equals(r.namespace()))
                .map(r -> r.at(now, r.carriedOut())).sorted(ORDER).toList();
        return new ImagePromotionSection(ImagePromotionSection.SCOPE,
                (int) shown.stream().filter(PromotionStages::problem).count(), shown);
    }
}
