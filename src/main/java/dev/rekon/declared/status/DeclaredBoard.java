package dev.rekon.declared.status;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.rekon.cluster.InstalledKinds;
import dev.rekon.cluster.Versioned;
import dev.rekon.cluster.watch.SharedWatches;
import dev.rekon.core.TransientFailureException;
import dev.rekon.declared.DeclaredKey;
import dev.rekon.declared.DeclaredStateService;
import dev.rekon.declared.intent.DeclaredStateView;
import dev.rekon.declared.plan.DeclaredPlan;
import dev.rekon.declared.watch.DeclaredStateFacet;

/**
 * The DeclaredStates' rows of the status page: for each DeclaredState in scope (from their watch), the plan the one loop would carry
 * out now, in report mode (nothing written), rendered; problem rows first. A DeclaredState whose plan cannot be
 * made now (its git server or the apiserver unreachable) shows as Unknown with the reason.
 */
@ApplicationScoped
public class DeclaredBoard {

    @Inject
    DeclaredStateService service;

    @Inject
    InstalledKinds kinds;

    @Inject
    SharedWatches watches;

    @Inject
    DeclaredStateFacet facet;

    public List<DeclaredRow> rows(String namespace) {
        List<DeclaredRow> rows = new ArrayList<>();
        if (!kinds.installed(InstalledKinds.DECLARED_STATE)) {
            return rows;
        }
        for (Versioned<DeclaredStateView> v : watches.of(facet).cachedOrListed(namespace, null)) {
            DeclaredKey key = new DeclaredKey(v.view().namespace(), v.view().name(), false);
            try {
                service.plan(key).ifPresent(p -> rows.add(row(p)));
            } catch (TransientFailureException e) {
                rows.add(new DeclaredRow(key.namespace(), key.name(), null, null, null, null, "Unknown", "Unavailable",
                        e.getMessage(), true, 0, 0, List.of(), List.of(), List.of(), null));
            }
        }
        rows.sort(Comparator.comparing((DeclaredRow r) -> !r.problem()).thenComparing(DeclaredRow::namespace)
                .thenComparing(DeclaredRow::name));
        return rows;
    }

    static DeclaredRow row(DeclaredPlan p) {
        DeclaredPlan.Report r = p.report();
        DeclaredStateView s = p.state();
        List<DeclaredRow.OrphanRow> orphans = r.orphans().stream().map(o -> new DeclaredRow.OrphanRow(o.ref().kind(),
                o.ref().namespace(), o.ref().name(), o.since().toString(),
                o.deleteAfter() == null ? null : o.deleteAfter().toString())).toList();
        boolean problem = "False".equals(r.ready()) || r.refusal() != null;
        return new DeclaredRow(s.namespace(), s.name(), s.url(), s.branch(), s.revision(), r.revision(), r.ready(),
                r.reason(), r.message(), problem, r.objects(), r.pendingApply(), r.rollingOut(), r.pendingPrunes(),
                orphans, r.refusal());
    }
}
