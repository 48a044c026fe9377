package dev.rekon.rollouts;

import java.util.List;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.rekon.cluster.InstalledKinds;
import dev.rekon.pipeline.ReconcileLoop;
import dev.rekon.resync.AreaPass;
import dev.rekon.resync.AreaResult;
import dev.rekon.resync.AreaResync;
import dev.rekon.resync.ResyncScope;

/**
 * The rollouts part of a resync pass, in the one shape of every area ({@link AreaPass}): every ImageDeploy in the
 * allowed namespaces as a key for {@link RolloutReconciler}, then every managed Deployment as a key for
 * {@link PruneReconciler}, each planned through the one loop in report mode from the watches ({@link RolloutKeys})
 * and reconciled only when its plan writes, so a converged cluster costs one list of kpack Images and no other
 * API call ({@link RolloutTally} counts each). A cluster without kpack's Image kind has no builds to check: only
 * the pruning runs, and the result says what was skipped.
 */
@ApplicationScoped
public class RolloutResync implements AreaResync {

    public static final String AREA = "rollouts";

    @Inject
    RolloutKeys keys;

    @Inject
    RolloutReconciler rollouts;

    @Inject
    PruneReconciler pruner;

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
        RolloutTally tally = new RolloutTally();
        // Without kpack's Image kind there are no builds to check; ImageDeploys are still pruned after.
        Optional<String> noImages = kinds.notInstalled("checking ImageDeploys against kpack builds",
                List.of(kinds.kpackImage()));
        Optional<RolloutKeys.Found> found = keys.find(scope.namespace(), noImages.isEmpty());
        if (found.isEmpty()) {
            tally.failed(null, "NoWatch", "ImageDeploys, kpack Images or managed Deployments can be neither watched"
                    + " nor listed (RBAC for list, or a CRD missing); the next pass tries again");
            return tally.result();
        }
        if (noImages.isEmpty()) {
            AreaPass.run(loop, rollouts, found.get().rollouts(), scope, tally);
        }
        AreaPass.run(loop, pruner, found.get().prunes(), scope, tally.prunes());
        AreaResult result = tally.result();
        return noImages.map(result::skipping).orElse(result);
    }
}
