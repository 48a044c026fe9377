package dev.rekon.declared.status;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.context.ApplicationScoped;

import dev.rekon.declared.DeclaredKey;
import dev.rekon.declared.intent.DeclaredStateView;
import dev.rekon.declared.plan.DeclaredPlan;
import dev.rekon.status.DeclaredRow;

/**
 * The DeclaredStates' rows of the status page, kept from the plans the one reconcile loop makes on this replica
 * (events, pushes, resync passes, report-mode resyncs), recorded once planned and carried out (or only reported),
 * never by the planner: the page renders the planner's own plans, and answering
 * {@code GET /status} costs no API call and no git request; a row is as fresh as the last plan of its
 * DeclaredState (the start-up resync plans every one; a report-mode resync plans them again without writing).
 * Problem rows come first.
 */
@ApplicationScoped
public class DeclaredBoard {

    private static final Comparator<DeclaredRow> ORDER = Comparator.comparing((DeclaredRow r) -> !r.problem())
            .thenComparing(DeclaredRow::namespace).thenComparing(DeclaredRow::name);

    /** A row and the plan it came from. */
    private record Entry(DeclaredPlan plan, DeclaredRow row) {
    }

    private final Map<String, Entry> rows = new ConcurrentHashMap<>();

    /**
     * The last plan of a DeclaredState, as the loop made it: carried out ({@code done}: what it applied, pruned and
     * deleted is done; a DeclaredState let go has no row) or only reported. Recorded after plan and apply, never by
     * the planner.
     */
    public void recorded(DeclaredPlan plan, boolean done) {
        if (done && plan.action() == DeclaredPlan.Action.FINALIZE) {
            rows.remove(id(plan.key()));
        } else {
            rows.put(id(plan.key()), new Entry(plan, row(plan, done)));
        }
    }

    /**
     * The rows of DeclaredStates in a namespace, or of all when it is null, of those that {@code exist}
     * ({@code <namespace>/<name>}; a DeclaredState deleted since its last plan has none).
     */
    public List<DeclaredRow> rows(String namespace, java.util.function.Predicate<String> exist) {
        return rows.values().stream().map(Entry::row).filter(r -> namespace == null || namespace.equals(r.namespace()))
                .filter(r -> exist.test(r.namespace() + "/" + r.name())).sorted(ORDER).toList();
    }

    private static String id(DeclaredKey key) {
        return key.namespace() + "/" + key.name();
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
