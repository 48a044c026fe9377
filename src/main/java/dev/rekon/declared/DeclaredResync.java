package dev.rekon.declared;

import java.util.List;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.rekon.cluster.InstalledKinds;
import dev.rekon.core.ObjectRef;
import dev.rekon.core.Reply;
import dev.rekon.declared.plan.DeclaredPlan;
import dev.rekon.declared.status.DeclaredBoard;
import dev.rekon.declared.status.DeclaredReport;
import dev.rekon.pipeline.ReconcileLoop;
import dev.rekon.resync.AreaPass;
import dev.rekon.resync.AreaResult;
import dev.rekon.resync.AreaResync;
import dev.rekon.resync.AreaTally;
import dev.rekon.resync.ResyncScope;

/**
 * Declared state's part of a resync pass: every DeclaredState (from their watch) a key through
 * {@link AreaPass}, scanning its namespaces for orphans, so a lost push is applied, drift is put back, deleted
 * objects come back, and orphans past their grace period go. The keys share one {@link TipMemo}: a pass lists each
 * repository's branch once, however many DeclaredStates follow it, and a converged DeclaredState costs no write.
 * In report mode nothing is written and no tip is listed (the last pass's stand). Counted by reply, a transient
 * failure as {@code Unavailable}. A cluster without the DeclaredState CRD skips the area.
 */
@ApplicationScoped
public class DeclaredResync implements AreaResync {

    public static final String AREA = DeclaredReport.AREA;

    @Inject
    DeclaredStateService service;

    @Inject
    DeclaredStateReconciler reconciler;

    @Inject
    ReconcileLoop loop;

    @Inject
    InstalledKinds kinds;

    @Inject
    DeclaredBoard board;

    @Override
    public String area() {
        return AREA;
    }

    @Override
    public AreaResult resync(ResyncScope scope) {
        Optional<String> missing = kinds.notInstalled("declared state", List.of(InstalledKinds.DECLARED_STATE));
        if (missing.isPresent()) {
            return AreaResult.skipped(AREA, missing.get());
        }
        AreaTally tally = new AreaTally(AREA);
        TipMemo tips = scope.report() ? TipMemo.lastKnown() : TipMemo.perInput();
        AreaPass.Counter counter = tally.byReply();
        AreaPass.run(loop, reconciler, service.everyState(scope.namespace(), tips), scope, new AreaPass.Counter() {
            @Override
            public void count(ObjectRef object, Reply reply, boolean writes) {
                counter.count(object, reply, writes);
            }

            @Override
            public void count(ObjectRef object, ReconcileLoop.Passed passed) {
                // A plan carried out was recorded by its apply; one only reported is the page's row from here.
                if (passed.planned() instanceof DeclaredPlan plan && (scope.report() || !passed.writes())) {
                    board.recorded(plan, false);
                }
                counter.count(object, passed);
            }

            @Override
            public void failed(ObjectRef object, String reason, String message) {
                counter.failed(object, reason, message);
            }
        });
        return tally.result();
    }
}
