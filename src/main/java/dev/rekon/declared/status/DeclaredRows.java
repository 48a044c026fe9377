package dev.rekon.declared.status;

import java.util.Comparator;
import java.util.List;

import dev.rekon.declared.intent.DeclaredStateView;
import dev.rekon.declared.plan.DeclaredPlan;

/**
 * A DeclaredState's row on the status page, rendered from the plan the loop makes for it now in report mode: the
 * revision applied and the one the plan applies, Ready, what it would apply and prune, the orphans, the refusal.
 * Problem rows come first.
 */
public final class DeclaredRows {

    public static final Comparator<DeclaredRow> ORDER = Comparator.comparing((DeclaredRow r) -> !r.problem())
            .thenComparing(DeclaredRow::namespace).thenComparing(DeclaredRow::name);

    private DeclaredRows() {
    }

    public static DeclaredRow row(DeclaredPlan p) {
        DeclaredPlan.Report r = p.report();
        DeclaredStateView s = p.state();
        List<DeclaredRow.OrphanRow> orphans = r.orphans().stream()
                .map(o -> new DeclaredRow.OrphanRow(o.ref().kind(), o.ref().namespace(), o.ref().name(),
                        o.since().toString(), o.deleteAfter() == null ? null : o.deleteAfter().toString())).toList();
        boolean problem = "False".equals(r.ready()) || r.refusal() != null;
        String applied = p.action() == DeclaredPlan.Action.NONE ? r.revision() : s.revision();
        return new DeclaredRow(s.namespace(), s.name(), s.url(), s.branch(), applied, r.revision(), r.ready(),
                r.reason(), r.message(), problem, r.objects(), r.pendingApply(), r.rollingOut(), r.pendingPrunes(),
                orphans, r.refusal());
    }
}
