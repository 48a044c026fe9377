package dev.rekon.modules.lifecycle.status;

import java.util.Comparator;
import java.util.List;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.rekon.modules.lifecycle.plan.LifecyclePlan;
import dev.rekon.pipeline.LastPlans;
import dev.rekon.status.LifecycleRow;

/**
 * The status rows of the lifecycle modules, read from the last plan of each module the one reconcile loop made on
 * this replica ({@link LastPlans}: events, the resync pass, report mode), as the row the plan made, or the row of
 * it carried out: answering {@code GET /status} costs no API call, and a row is as fresh as the last plan of its
 * module (the start-up resync plans every module). Problem rows come first.
 */
@ApplicationScoped
public class LifecycleBoard {

    /** The area under which the loop keeps the lifecycle's last plans. */
    public static final String AREA = "modules/lifecycle";

    private static final Comparator<LifecycleRow> ORDER = Comparator.comparing((LifecycleRow r) -> !r.problem())
            .thenComparing(LifecycleRow::namespace).thenComparing(LifecycleRow::kyma)
            .thenComparing(LifecycleRow::module);

    @Inject
    LastPlans plans;

    /** A board over the last plans of a loop made outside CDI (service tests). */
    public static LifecycleBoard over(LastPlans plans) {
        LifecycleBoard board = new LifecycleBoard();
        board.plans = plans;
        return board;
    }

    /** The rows of Kymas in a namespace, or of all when it is null. */
    public List<LifecycleRow> rows(String namespace) {
        return plans.<LifecycleRow>of(AREA).stream().map(LifecycleBoard::row).flatMap(Optional::stream)
                .filter(r -> namespace == null || namespace.equals(r.namespace())).sorted(ORDER).toList();
    }

    private static Optional<LifecycleRow> row(LastPlans.Last<LifecycleRow> last) {
        return last.carriedOut() ? LifecycleRows.carriedOut(last.remembered(), (LifecyclePlan) last.plan())
                : Optional.of(last.remembered());
    }
}
