package dev.rekon.declared;

import java.util.List;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.rekon.cluster.InstalledKinds;
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

    public static final String AREA = "declared";

    @Inject
    DeclaredStateService service;

    @Inject
    DeclaredStateReconciler reconciler;

    @Inject
    ReconcileLoop loop;

    @Inject
    InstalledKinds kinds;

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
        AreaPass.run(loop, reconciler, service.everyState(scope.namespace(), tips), scope, tally.byReply());
        return tally.result();
    }
}
