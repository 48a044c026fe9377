package dev.rekon.declared;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.rekon.cluster.watch.SharedWatches;
import dev.rekon.declared.intent.DeclaredStateView;
import dev.rekon.declared.plan.DeclaredPlan;
import dev.rekon.declared.status.DeclaredRow;
import dev.rekon.declared.status.DeclaredRows;
import dev.rekon.declared.status.DeclaredSection;
import dev.rekon.declared.watch.DeclaredStateFacet;
import dev.rekon.pipeline.ReconcileLoop;
import dev.rekon.status.AreaReport;
import dev.rekon.status.StatusRead;
import dev.rekon.status.StatusReport;

/**
 * The DeclaredStates' part of the page: every one the watch holds, planned now by the one loop in report mode
 * ({@link DeclaredStateReconciler#page}), with no API call and no git read: from its watched spec and status, the
 * tip its last input listed (read by commit from the git cache; the row says since when) and its objects as its
 * last attempt left them. A DeclaredState being let go has no row.
 */
@ApplicationScoped
public class DeclaredReport implements AreaReport {

    /** The area's name, in {@code ?area=} and in a resync's scope. */
    public static final String AREA = DeclaredResync.AREA;

    @Inject
    SharedWatches watches;

    @Inject
    DeclaredStateFacet facet;

    @Inject
    ReconcileLoop loop;

    @Inject
    DeclaredStateReconciler reconciler;

    @Override
    public StatusReport addTo(StatusReport report, StatusRead read, String namespace, Instant now) {
        var page = reconciler.page();
        // One memo for the page: each commit's documents are read from the cache once, whoever follows them.
        TipMemo held = TipMemo.held();
        List<DeclaredRow> rows = new ArrayList<>();
        for (DeclaredStateView s : read.of(watches.of(facet), "DeclaredStates")) {
            if (namespace == null || namespace.equals(s.namespace())) {
                loop.plan(page, new DeclaredKey(s.namespace(), s.name(), false, held))
                        .filter(p -> p.action() != DeclaredPlan.Action.FINALIZE)
                        .ifPresent(p -> rows.add(DeclaredRows.row(p)));
            }
        }
        rows.sort(DeclaredRows.ORDER);
        return report.withSection(new DeclaredSection(DeclaredSection.SCOPE,
                (int) rows.stream().filter(DeclaredRow::problem).count(), rows));
    }

    @Override
    public String area() {
        return AREA;
    }
}
