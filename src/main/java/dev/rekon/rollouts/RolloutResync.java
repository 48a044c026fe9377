package dev.rekon.rollouts;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.rekon.cluster.InstalledKinds;
import dev.rekon.core.TransientFailureException;
import dev.rekon.pipeline.ReconcileLoop;
import dev.rekon.resync.AreaResult;
import dev.rekon.resync.AreaResync;
import dev.rekon.resync.ResyncScope;
import dev.rekon.rollouts.apply.DeploymentPruner;
import dev.rekon.rollouts.apply.RolloutGateway;
import dev.rekon.rollouts.view.DeploymentView;
import dev.rekon.rollouts.view.ImageDeployView;
import dev.rekon.rollouts.view.KpackImage;
import dev.rekon.rollouts.view.RolloutNames;
import dev.rekon.rollouts.watch.ResyncViews;

/**
 * The rollouts part of a resync pass: every ImageDeploy in the allowed namespaces against the current Ready
 * builds of the kpack Images it references, planned through the one loop by the same {@link RolloutReconciler}
 * as events, in report mode, from {@link ResyncViews} alone. Only an ImageDeploy whose plan would write anything
 * (its Deployment missing or behind, a status write lost) is reconciled through the loop, so a converged cluster
 * costs one list of kpack Images and no other API call ({@link RolloutTally} counts each).
 * Afterwards {@link DeploymentPruner} removes the Deployments whose ImageDeploy is gone or renamed them. A cluster
 * without kpack's Image kind has no builds to check: only the pruning runs, and the result says what was skipped.
 */
@ApplicationScoped
public class RolloutResync implements AreaResync {

    public static final String AREA = "rollouts";

    /** How many ImageDeploys a pass brings in line at once. */
    static final int WRITERS = 4;

    @Inject
    ResyncViews views;

    @Inject
    RolloutReconciler rollouts;

    @Inject
    ReconcileLoop loop;

    @Inject
    DeploymentPruner pruner;

    @Inject
    RolloutGateway gateway;

    @Inject
    InstalledKinds kinds;

    @Override
    public String area() {
        return AREA;
    }

    @Override
    public AreaResult resync(ResyncScope scope) {
        RolloutTally tally = new RolloutTally();
        Set<String> groups = new LinkedHashSet<>(List.of(RolloutNames.GROUP));
        Optional<List<ImageDeployView>> idps = imageDeploys(scope, groups);
        // Without kpack's Image kind there are no builds to check; ImageDeploys are still pruned after.
        Optional<String> noImages = kinds.notInstalled("checking ImageDeploys against kpack builds",
                List.of(kinds.kpackImage()));
        Optional<List<KpackImage>> images = noImages.isPresent() ? Optional.of(List.of())
                : views.images(scope.namespace());
        Optional<List<DeploymentView>> deployments = views.deployments(scope.namespace());
        if (idps.isEmpty() || images.isEmpty() || deployments.isEmpty()) {
            tally.failed(null, "NoWatch", "ImageDeploys, kpack Images or managed Deployments cannot be watched"
                    + " (RBAC for list and watch, or a CRD missing); the next pass tries again");
            return tally.result();
        }
        if (noImages.isEmpty()) {
            runAll(planAll(idps.get(), images.get(), deployments.get(), scope, tally));
        }
        tally.pruned(pruner.prune(idps.get(), deployments.get(), groups, scope));
        AreaResult result = tally.result();
        return noImages.map(result::skipping).orElse(result);
    }

    /**
     * The ImageDeploys of Rekon's group, and of kpush's when its watch runs (its CRD is optional: without it none
     * of its ImageDeploys exists, and none is pruned); {@code groups} gains each group read.
     */
    private Optional<List<ImageDeployView>> imageDeploys(ResyncScope scope, Set<String> groups) {
        Optional<List<ImageDeployView>> idps = views.imageDeploys(RolloutNames.GROUP, scope.namespace());
        Optional<List<ImageDeployView>> kpush = idps.isPresent()
                && gateway.imageDeployGroups().contains(RolloutNames.KPUSH_GROUP)
                        ? views.imageDeploys(RolloutNames.KPUSH_GROUP, scope.namespace()) : Optional.empty();
        if (kpush.isEmpty()) {
            return idps;
        }
        groups.add(RolloutNames.KPUSH_GROUP);
        List<ImageDeployView> all = new ArrayList<>(idps.get());
        all.addAll(kpush.get());
        return Optional.of(all);
    }

    /** Plans every ImageDeploy in scope and counts those that write nothing; returns the reconciles to run. */
    private List<Runnable> planAll(List<ImageDeployView> idps, List<KpackImage> images,
            List<DeploymentView> deployments, ResyncScope scope, RolloutTally tally) {
        Map<String, KpackImage> imageIndex = new HashMap<>();
        images.forEach(i -> imageIndex.put(i.namespace() + "/" + i.name(), i));
        Map<String, DeploymentView> deploymentIndex = new HashMap<>();
        deployments.forEach(d -> deploymentIndex.put(d.namespace() + "/" + d.name(), d));
        List<Runnable> writes = new ArrayList<>();
        for (ImageDeployView idp : idps) {
            if (scope.covers(idp.namespace())) {
                Runnable write = one(idp, imageIndex, deploymentIndex.get(idp.namespace() + "/" + idp.deploymentName()),
                        scope, tally);
                if (write != null) {
                    writes.add(write);
                }
            }
        }
        return writes;
    }

    /**
     * Plans one ImageDeploy through the loop in report mode, from the watches alone, and counts it; returns the
     * reconcile to run when the plan would write anything, else null.
     */
    private Runnable one(ImageDeployView idp, Map<String, KpackImage> imageIndex, DeploymentView cached,
            ResyncScope scope, RolloutTally tally) {
        Map<String, KpackImage> images = KpackImage.named(idp.namespace(), idp.refs(), imageIndex);
        // Without a managed Deployment this plans a create; the write then reads the Deployment, which may
        // exist without Rekon's label (a conflict it reports) or be newer than the watch.
        RolloutKey key = RolloutKey.resync(idp, images, cached);
        RolloutStep step = loop.plan(rollouts, key).orElse(null);
        if (step == null) {
            return null;
        }
        if (!step.writes() || scope.report()) {
            tally.count(idp.ref(), step.reply(), step.writes());
            return null;
        }
        return () -> {
            try {
                tally.count(idp.ref(), loop.reconcile(rollouts, key.readingTheDeployment()), true);
            } catch (TransientFailureException e) {
                tally.failed(idp.ref(), "TransientFailure", e.getMessage());
            } catch (RuntimeException e) {
                tally.failed(idp.ref(), "Failed", e.getMessage());
            }
        };
    }

    /**
     * Makes the writes a few at a time: a pass after a long outage may have thousands, each a round trip, and
     * every write is guarded on its own, so their order does not matter.
     */
    private static void runAll(List<Runnable> writes) {
        if (writes.size() <= 1) {
            writes.forEach(Runnable::run);
            return;
        }
        ExecutorService pool = Executors.newFixedThreadPool(Math.min(WRITERS, writes.size()));
        try {
            pool.invokeAll(writes.stream().map(Executors::callable).toList());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            pool.shutdown();
        }
    }
}
