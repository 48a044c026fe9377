package dev.rekon.rollouts;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.LinkedHashSet;
import java.util.ArrayList;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.rekon.core.ObjectRef;
import dev.rekon.core.Outcome;
import dev.rekon.core.Reply;
import dev.rekon.core.TransientFailureException;
import dev.rekon.pipeline.ReconcileLoop;
import dev.rekon.resync.AreaResult;
import dev.rekon.resync.AreaResync;
import dev.rekon.resync.AreaTally;
import dev.rekon.resync.ResyncItem;
import dev.rekon.resync.ResyncScope;

/**
 * The rollouts part of a resync pass: every ImageDeploy in the allowed namespaces against the current Ready
 * builds of the kpack Images it references, planned through the one loop by the same {@link RolloutReconciler}
 * as events, in report mode, from {@link ResyncViews} alone. Only an ImageDeploy whose plan would write anything
 * (its Deployment missing or behind, a status write lost) is reconciled through the loop, so a converged cluster
 * costs no API call at all.
 * Afterwards {@link DeploymentPruner} removes the Deployments whose ImageDeploy is gone or renamed them.
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

    @Override
    public String area() {
        return AREA;
    }

    @Override
    public AreaResult resync(ResyncScope scope) {
        AreaTally tally = new AreaTally(AREA);
        Set<String> groups = new LinkedHashSet<>(List.of(RolloutGateway.GROUP));
        Optional<List<ImageDeployView>> idps = imageDeploys(scope, groups);
        Optional<List<KpackImage>> images = views.images(scope.namespace());
        Optional<List<DeploymentView>> deployments = views.deployments(scope.namespace());
        if (idps.isEmpty() || images.isEmpty() || deployments.isEmpty()) {
            tally.failed(null, "NoWatch", "ImageDeploys, kpack Images or managed Deployments cannot be watched"
                    + " (RBAC for list and watch, or a CRD missing); the next pass tries again");
            return tally.result();
        }
        Counts counts = new Counts(tally, java.util.Collections.synchronizedList(new ArrayList<>()));
        runAll(planAll(idps.get(), images.get(), deployments.get(), scope, counts));
        counts.extras().addAll(pruner.prune(idps.get(), deployments.get(), groups, scope));
        return withExtras(tally.result(), counts.extras());
    }

    /**
     * The ImageDeploys of Rekon's group, and of kpush's when its watch runs (its CRD is optional: without it none
     * of its ImageDeploys exists, and none is pruned); {@code groups} gains each group read.
     */
    private Optional<List<ImageDeployView>> imageDeploys(ResyncScope scope, Set<String> groups) {
        Optional<List<ImageDeployView>> idps = views.imageDeploys(RolloutGateway.GROUP, scope.namespace());
        Optional<List<ImageDeployView>> kpush = idps.isPresent()
                && gateway.imageDeployGroups().contains(RolloutGateway.KPUSH_GROUP)
                        ? views.imageDeploys(RolloutGateway.KPUSH_GROUP, scope.namespace()) : Optional.empty();
        if (kpush.isEmpty()) {
            return idps;
        }
        groups.add(RolloutGateway.KPUSH_GROUP);
        List<ImageDeployView> all = new ArrayList<>(idps.get());
        all.addAll(kpush.get());
        return Optional.of(all);
    }

    /** Plans every ImageDeploy in scope and counts those that write nothing; returns the reconciles to run. */
    private List<Runnable> planAll(List<ImageDeployView> idps, List<KpackImage> images,
            List<DeploymentView> deployments, ResyncScope scope, Counts counts) {
        Map<String, KpackImage> imageIndex = new HashMap<>();
        images.forEach(i -> imageIndex.put(i.namespace() + "/" + i.name(), i));
        Map<String, DeploymentView> deploymentIndex = new HashMap<>();
        deployments.forEach(d -> deploymentIndex.put(d.namespace() + "/" + d.name(), d));
        List<Runnable> writes = new ArrayList<>();
        for (ImageDeployView idp : idps) {
            if (scope.covers(idp.namespace())) {
                Runnable write = one(idp, imageIndex, deploymentIndex.get(idp.namespace() + "/" + idp.deploymentName()),
                        scope, counts);
                if (write != null) {
                    writes.add(write);
                }
            }
        }
        return writes;
    }

    /** The tally, and the conflicts and pruned Deployments it has no count for. */
    private record Counts(AreaTally tally, List<ResyncItem> extras) {
    }

    /**
     * Plans one ImageDeploy through the loop in report mode, from the watches alone, and counts it; returns the
     * reconcile to run when the plan would write anything, else null.
     */
    private Runnable one(ImageDeployView idp, Map<String, KpackImage> imageIndex, DeploymentView cached,
            ResyncScope scope, Counts counts) {
        Map<String, KpackImage> images = new LinkedHashMap<>();
        idp.refs().forEach(r -> {
            KpackImage image = imageIndex.get(idp.namespace() + "/" + r.imageName());
            if (image != null) {
                images.put(image.name(), image);
            }
        });
        // Without a managed Deployment this plans a create; the write then reads the Deployment, which may
        // exist without Rekon's label (a conflict it reports) or be newer than the watch.
        RolloutKey key = RolloutKey.resync(idp, images, cached);
        RolloutStep step = loop.plan(rollouts, key).orElse(null);
        if (step == null) {
            return null;
        }
        if (!step.writes() || scope.report()) {
            count(counts, idp.ref(), step.reply(), step.writes());
            return null;
        }
        return () -> {
            try {
                count(counts, idp.ref(), loop.reconcile(rollouts, key.readingTheDeployment()), true);
            } catch (TransientFailureException e) {
                counts.tally().failed(idp.ref(), "TransientFailure", e.getMessage());
            } catch (RuntimeException e) {
                counts.tally().failed(idp.ref(), "Failed", e.getMessage());
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
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(
                Math.min(WRITERS, writes.size()));
        try {
            pool.invokeAll(writes.stream().map(java.util.concurrent.Executors::callable).toList());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            pool.shutdown();
        }
    }

    private static void count(Counts counts, ObjectRef ref, Reply reply, boolean wrote) {
        AreaTally tally = counts.tally();
        Outcome outcome = reply.outcome();
        String reason = reply.reason();
        String message = reply.message();
        if (ManualChanges.REASON.equals(reason)) {
            tally.drifted(ref, reason, message);
        } else if (RolloutPlanner.CONFLICT.equals(reason)) {
            counts.extras().add(new ResyncItem(ref, "conflict", reason, message));
        } else if (outcome == Outcome.APPLIED || wrote) {
            tally.changed(ref, reason, message);
        } else {
            tally.unchanged();
        }
    }

    /** The tally's result with the pruned Deployments (counted as changed) and the rest (conflicts, failed) added. */
    static AreaResult withExtras(AreaResult r, List<ResyncItem> extras) {
        if (extras.isEmpty()) {
            return r;
        }
        int changed = (int) extras.stream().filter(i -> DeploymentPruner.PRUNED.equals(i.result())).count();
        List<ResyncItem> objects = new ArrayList<>(r.objects());
        objects.addAll(extras);
        return new AreaResult(r.area(), r.checked() + extras.size(), r.changed() + changed, r.unchanged(), r.drifted(),
                r.failed() + extras.size() - changed, objects);
    }
}
