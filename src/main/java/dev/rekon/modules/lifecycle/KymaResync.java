package dev.rekon.modules.lifecycle;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.rekon.resync.AreaResult;
import dev.rekon.resync.AreaResync;
import dev.rekon.resync.AreaTally;
import dev.rekon.resync.ResyncScope;

/**
 * The module lifecycle's part of a resync pass: every module of every Kyma through the same loop as its events,
 * so objects deleted or changed by hand come back, an interrupted install or uninstall goes on, and a converged
 * module costs no write. In report mode nothing is written.
 */
@ApplicationScoped
public class KymaResync implements AreaResync {

    public static final String AREA = "kymas";

    @Inject
    KymaModuleService service;

    @Override
    public String area() {
        return AREA;
    }

    @Override
    public AreaResult resync(ResyncScope scope) {
        AreaTally tally = new AreaTally(AREA);
        for (KymaModule key : service.everyModule(scope.namespace())) {
            // Drift is taken back here, not only reported: a change, whose reason says it was drift.
            tally.count(key.kymaRef(), () -> scope.report() ? service.report(key) : service.reconcile(key));
        }
        return tally.result();
    }
}
