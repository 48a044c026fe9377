package dev.rekon.modules.lifecycle;

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
 * The module lifecycle's part of a resync pass, in the one shape of every area ({@link AreaPass}): every module
 * of every Kyma a key for the same loop and {@link KymaModuleReconciler} as its events, planned in report mode and
 * carried out only when the plan writes, so objects deleted or changed by hand come back, an interrupted install or uninstall goes on, and a converged
 * module costs no write. In report mode nothing is written. A cluster without Kyma's kinds skips the area.
 */
@ApplicationScoped
public class KymaResync implements AreaResync {

    public static final String AREA = "kymas";

    /** What the lifecycle reads: Kymas, and the releases their modules resolve to. */
    public static final List<InstalledKinds.Kind> KINDS = List.of(InstalledKinds.KYMA, InstalledKinds.MODULE_TEMPLATE,
            InstalledKinds.MODULE_RELEASE_META);

    @Inject
    KymaModuleService service;

    @Inject
    ReconcileLoop loop;

    @Inject
    KymaModuleReconciler reconciler;

    @Inject
    InstalledKinds kinds;

    @Override
    public String area() {
        return AREA;
    }

    @Override
    public AreaResult resync(ResyncScope scope) {
        Optional<String> missing = kinds.notInstalled("the Kyma module lifecycle", KINDS);
        if (missing.isPresent()) {
            return AreaResult.skipped(AREA, missing.get());
        }
        AreaTally tally = new AreaTally(AREA);
        // Drift is taken back here, not only reported: a change, whose reason says it was drift.
        AreaPass.run(loop, reconciler, service.everyModule(scope.namespace()), scope, tally);
        return tally.result();
    }
}
