package dev.rekon.modules.lifecycle.status;

import java.util.Comparator;
import java.util.Optional;

import dev.rekon.modules.lifecycle.plan.LifecyclePlan;
import dev.rekon.pipeline.LastPlanRows;
import dev.rekon.pipeline.LastPlans;

/**
 * The status rows of the lifecycle modules, read from the last plan of each module the one reconcile loop made on
 * this replica ({@link LastPlans}: events, the resync pass, report mode), as the row the plan made, or the row of
 * it carried out: answering {@code GET /status} costs no API call, and a row is as fresh as the last plan of its
 * module (the start-up resync plans every module). Problem rows come first.
 */
public final class LifecycleBoard {

    /** The area under which the loop keeps the lifecycle's last plans. */
    public static final String AREA = "modules/lifecycle";

    /** The rows of the last plans: the row the plan made, or the row of it carried out. */
    public static final LastPlanRows<LifecycleRow> ROWS = new LastPlanRows<>(AREA, (last, now) -> row(last),
            LifecycleRow::namespace, Comparator.comparing((LifecycleRow r) -> !r.problem())
                    .thenComparing(LifecycleRow::namespace).thenComparing(LifecycleRow::kyma)
                    .thenComparing(LifecycleRow::module));

    private LifecycleBoard() {
    }

    private static Optional<LifecycleRow> row(LastPlans.Last<LifecycleRow> last) {
        return last.carriedOut() ? LifecycleRows.carriedOut(last.remembered(), (LifecyclePlan) last.plan())
                : Optional.of(last.remembered());
    }
}
