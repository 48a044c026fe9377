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
 * (events, pushes, resync passes, report-mode resyncs): the page renders the planner's own plans, and answering
 * {@code GET /status} costs no API call and no git request; a row is as fresh as the last plan of its
 * DeclaredState (the start-up resync plans every one; a report-mode resync plans them again without writing).
 * Problem rows come first.
 */
@ApplicationScoped
public class DeclaredBoard {

    private static final Comparator<DeclaredRow> ORDER = Comparator.comparing((DeclaredRow r) -> !r.problem())
            .thenComparing(DeclaredRow::namespace).thenComparing(DeclaredRow::name);

    /** A row and the plan it came from, so that carrying out an older plan never overwrites a newer row. */
    private record Entry(DeclaredPlan plan, DeclaredRow row) {
    }

    private final Map<String, Entry> rows = new ConcurrentHashMap<>();

    /** A plan was made (to be carried out, or only reported). */
    public void planned(DeclaredPlan plan) {
        rows.put(id(plan.key()), new Entry(plan, row(plan, false)));
    }

    /** The plan was carried out in full: what it applied, pruned and deleted is done. */
    public void carriedOut(DeclaredPlan plan) {
        rows.computeIfPresent(id(plan.key()), (k, e) -> e.plan() != plan ? e
                : plan.action() == DeclaredPlan.Action.FINALIZE ? null : new Entry(plan, row(plan, true)));
    }

    /**
     * Whether the DeclaredState's last plan on this replica waits for what it applied to roll out (or is not
     * Ready); true when there is none yet, since only planning can tell.
     */
    public boolean waitsForRollout(DeclaredKey key) {
        Entry e = rows.get(id(key));
        return e == null || !e.plan().report().rollingOut().isEmpty() || !"True".equals(e.plan().report().ready());
    }

    /** A DeclaredState that is gone has no row. */
    public void gone(DeclaredKey key) {
        rows.remove(id(key));
    }

    /** The rows of DeclaredStates in a namespace, or of all when it is null. */
    public List<DeclaredRow> rows(String namespace) {
        return rows.values().stream().map(Entry::row).filter(r -> namespace == null || namespace.equals(r.namespace()))
                .sorted(ORDER).toList();
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
