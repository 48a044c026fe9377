package dev.rekon.declared.status;

import java.util.Comparator;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.rekon.declared.intent.DeclaredStateView;
import dev.rekon.declared.plan.DeclaredPlan;
import dev.rekon.pipeline.LastPlans;
import dev.rekon.status.DeclaredRow;

/**
 * The DeclaredStates' rows of the status page, made from the last plan of each DeclaredState that the one
 * reconcile loop made on this replica ({@link LastPlans}: events, pushes, resync passes, report-mode resyncs), as
 * planned or as carried out in full; the loop records them, never the planner or the area. Answering
 * {@code GET /status} costs no API call and no git request; a row is as fresh as the last plan of its
 * DeclaredState (the start-up resync plans every one; a report-mode resync plans them again without writing).
 * Problem rows come first.
 */
@ApplicationScoped
public class DeclaredBoard {

    /** The area under which the loop keeps the DeclaredStates' last plans. */
    public static final String AREA = "declared";

    private static final Comparator<DeclaredRow> ORDER = Comparator.comparing((DeclaredRow r) -> !r.problem())
            .thenComparing(DeclaredRow::namespace).thenComparing(DeclaredRow::name);

    @Inject
    LastPlans plans;

    /** A board over the last plans of a loop made outside CDI (service tests). */
    public static DeclaredBoard over(LastPlans plans) {
        DeclaredBoard board = new DeclaredBoard();
        board.plans = plans;
        return board;
    }

    /** What the loop keeps of a plan as it is made: its row as only planned (nothing of it done yet). */
    public static DeclaredRow planned(DeclaredPlan plan) {
        return row(plan, false);
    }

    /**
     * The rows of DeclaredStates in a namespace, or of all when it is null, of those that {@code exist}
     * ({@code <namespace>/<name>}; a DeclaredState deleted since its last plan has none). A plan carried out in
     * full shows what it did (a DeclaredState it let go has no row); one only planned shows what it would do.
     */
    public List<DeclaredRow> rows(String namespace, java.util.function.Predicate<String> exist) {
        return plans.<DeclaredRow>of(AREA).stream().map(DeclaredBoard::row).flatMap(java.util.Optional::stream)
                .filter(r -> namespace == null || namespace.equals(r.namespace()))
                .filter(r -> exist.test(r.namespace() + "/" + r.name())).sorted(ORDER).toList();
    }

    private static java.util.Optional<DeclaredRow> row(LastPlans.Last<DeclaredRow> last) {
        if (!last.carriedOut()) {
            return java.util.Optional.of(last.remembered());
        }
        DeclaredPlan plan = (DeclaredPlan) last.plan();
        return plan.action() == DeclaredPlan.Action.FINALIZE ? java.util.Optional.empty()
                : java.util.Optional.of(row(plan, true));
    }

    static DeclaredRow row(DeclaredPlan p, boolean done) {
        DeclaredPlan.Report r = p.report();
        DeclaredStateView s = p.state();
        List<String> deleted = p.orphanDeletes().stream().map(o -> o.ref().toString()).toList();
        List<DeclaredRow.OrphanRow> orphans = r.orphans().stream()
                .filter(o -> !done || !deleted.contains(o.ref().toString()))
                .map(o -> new DeclaredRow.OrphanRow(o.ref().kind(), o.ref().namespace(), o.ref().name(),
                        o.since().toString(), o.deleteAfter() == null ? null : o.deleteAfter().toString())).toList();
        boolean problem = "False".equals(r.ready()) || r.refusal() != null;
        String applied = done && p.action() == DeclaredPlan.Action.APPLY || p.action() == DeclaredPlan.Action.NONE
                ? r.revision() : s.revision();
        return new DeclaredRow(s.namespace(), s.name(), s.url(), s.branch(), applied, r.revision(), r.ready(),
                r.reason(), r.message(), problem, r.objects(), done ? 0 : r.pendingApply(), r.rollingOut(),
                done ? List.of() : r.pendingPrunes(), orphans, r.refusal());
    }
}
