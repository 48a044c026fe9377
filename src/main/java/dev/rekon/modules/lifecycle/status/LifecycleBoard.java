package dev.rekon.modules.lifecycle.status;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.context.ApplicationScoped;

import dev.rekon.modules.lifecycle.KymaModule;
import dev.rekon.modules.lifecycle.plan.LifecyclePlan;
import dev.rekon.modules.lifecycle.plan.LifecycleViews;
import dev.rekon.status.LifecycleRow;

/**
 * The status rows of the lifecycle modules, kept from the plans the one reconcile loop makes on this replica
 * (events, the resync pass, report mode): answering {@code GET /status} costs no API call, and a row is as fresh
 * as the last plan of its module (the start-up resync plans every module). Problem rows come first.
 */
@ApplicationScoped
public class LifecycleBoard {

    private static final Comparator<LifecycleRow> ORDER = Comparator.comparing((LifecycleRow r) -> !r.problem())
            .thenComparing(LifecycleRow::namespace).thenComparing(LifecycleRow::kyma)
            .thenComparing(LifecycleRow::module);

    /** A row and the plan it came from, so that carrying out an older plan never overwrites a newer row. */
    private record Entry(LifecyclePlan plan, LifecycleRow row) {
    }

    private final Map<KymaModule, Entry> rows = new ConcurrentHashMap<>();

    /** A plan was made (to be carried out, or only reported). */
    public void planned(LifecycleViews views, LifecyclePlan plan) {
        LifecycleRows.planned(views, plan).ifPresentOrElse(r -> rows.put(plan.key(), new Entry(plan, r)),
                () -> rows.remove(plan.key()));
    }

    /** The plan was carried out in full. */
    public void carriedOut(LifecyclePlan plan) {
        rows.computeIfPresent(plan.key(), (k, e) -> e.plan() != plan ? e
                : LifecycleRows.carriedOut(e.row(), plan).map(r -> new Entry(plan, r)).orElse(null));
    }

    /** The rows of Kymas in a namespace, or of all when it is null. */
    public List<LifecycleRow> rows(String namespace) {
        return rows.values().stream().map(Entry::row).filter(r -> namespace == null || namespace.equals(r.namespace()))
                .sorted(ORDER).toList();
    }
}
