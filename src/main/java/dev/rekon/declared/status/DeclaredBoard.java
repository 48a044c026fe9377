package dev.rekon.declared.status;

import java.util.Comparator;
import java.util.List;
import java.util.Optional;

import dev.rekon.declared.intent.DeclaredStateView;
import dev.rekon.declared.plan.DeclaredPlan;
import dev.rekon.pipeline.LastPlanRows;
import dev.rekon.pipeline.LastPlans;

/**
 * The DeclaredStates' rows of the status page, made from the last plan of each DeclaredState that the one
 * reconcile loop made on this replica ({@link LastPlans}: events, pushes, resync passes, report-mode resyncs), as
 * planned or as carried out in full; the loop records them, never the planner or the area. Answering
 * {@code GET /status} costs no API call and no git request; a row is as fresh as the last plan of its
 * DeclaredState (the start-up resync plans every one; a report-mode resync plans them again without writing).
 * Problem rows come first.
 */
public final class DeclaredBoard {

    /** The area under which the loop keeps the DeclaredStates' last plans. */
    public static final String AREA = "declared";

    /**
     * The rows of the last plans: a plan carried out in full shows what it did (a DeclaredState it let go has no
     * row); one only planned shows what it would do.
     */
    public static final LastPlanRows<DeclaredRow> ROWS = new LastPlanRows<>(AREA, (last, now) -> row(last),
            DeclaredRow::namespace, Comparator.comparing((DeclaredRow r) -> !r.problem())
                    .thenComparing(DeclaredRow::namespace).thenComparing(DeclaredRow::name));

    private DeclaredBoard() {
    }

    /** What the loop keeps of a plan as it is made: its row as only planned (nothing of it done yet). */
    public static DeclaredRow planned(DeclaredPlan plan) {
        return row(plan, false);
    }

    private static Optional<DeclaredRow> row(LastPlans.Last<DeclaredRow> last) {
        if (!last.carriedOut()) {
            return Optional.of(last.remembered());
        }
        DeclaredPlan plan = (DeclaredPlan) last.plan();
        return plan.action() == DeclaredPlan.Action.FINALIZE ? Optional.empty() : Optional.of(row(plan, true));
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
