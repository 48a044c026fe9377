package dev.rekon.rollouts;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiFunction;

import jakarta.enterprise.context.ApplicationScoped;

import dev.rekon.cluster.Versioned;
import dev.rekon.rollouts.plan.RolloutPlan;
import dev.rekon.rollouts.plan.RolloutPlanner;
import dev.rekon.rollouts.view.DeploymentView;
import dev.rekon.rollouts.view.ImageDeployView;
import dev.rekon.rollouts.view.KpackImage;
import dev.rekon.resync.FannedOut;
import dev.rekon.web.OutgoingEvent;

/**
 * Image rollouts as the one reconcile loop runs them, for one ImageDeploy: reads the ImageDeploy, its Deployment
 * and the kpack Images in scope (from what the key knows and the watch caches, or fresh after a lost race), plans
 * with the pure {@link RolloutPlanner} (the status included), and has {@link RolloutApplier} write the
 * Deployment, then the status when it differs, in the same attempt.
 */
@ApplicationScoped
public class RolloutReconciler extends ImageDeployReconciler<RolloutKey, RolloutViews>
        implements FannedOut<RolloutKey> {

    private final RolloutPlanner planner = new RolloutPlanner();

    /**
     * The Deployment Rekon does not manage that holds a name, as the one watch of Deployments shows it (a GET only
     * while that watch has not synced); a report over watched views alone ({@link RolloutReport#over}) has none.
     */
    BiFunction<String, String, Optional<DeploymentView>> byName = (namespace, name) -> gateway
            .deploymentIfTaken(namespace, name);

    /** The ImageDeploy's own event ({@link RolloutFunctions#reconcileEvent}). */
    @Override
    public OutgoingEvent reconcileEvent(RolloutKey key) {
        return RolloutFunctions.reconcileEvent(key.group(), key.namespace(), key.name());
    }

    @Override
    public Optional<RolloutViews> load(RolloutKey key, boolean fresh) {
        return (fresh ? gateway.imageDeploy(key.group(), key.namespace(), key.name()) : unread(key))
                .map(i -> views(key, i, fresh));
    }

    /**
     * The ImageDeploy without a read where this process knows it: the newer of the key's copy and the watch's (which
     * holds this process's own status writes until it shows them), so that a status pass that runs after another
     * pass's write plans from that write, not from the copy its input carried; a pass that follows a Deployment
     * takes the watch's. A key that carries the watches' snapshot (a resync's or the page's, its Deployment
     * included) plans from it as it is. Any other key reads it.
     */
    private Optional<ImageDeployView> unread(RolloutKey key) {
        ImageDeployView carried = key.known().imageDeploy();
        if (carried != null && key.known().deployment() != null) {
            return Optional.of(carried);
        }
        if (carried == null && !key.statusOnly()) {
            return gateway.imageDeploy(key.group(), key.namespace(), key.name());
        }
        Optional<ImageDeployView> watched = gateway.imageDeployWatched(key.group(), key.namespace(), key.name());
        if (carried == null) {
            return watched.isPresent() ? watched : gateway.imageDeploy(key.group(), key.namespace(), key.name());
        }
        return Optional.of(watched.filter(w -> Versioned.olderThan(carried.resourceVersion(), w.resourceVersion()))
                .orElse(carried));
    }

    private RolloutViews views(RolloutKey key, ImageDeployView idp, boolean fresh) {
        RolloutKey.Known known = key.known();
        Optional<DeploymentView> deployment = fresh ? gateway.deployment(idp.namespace(), idp.deploymentName())
                : known.deployment() != null ? known.deployment()
                        : gateway.deploymentCachedOrRead(idp.namespace(), idp.deploymentName());
        var scope = key.scope(idp, deployment.isEmpty());
        Map<String, KpackImage> images = new LinkedHashMap<>(known.images());
        if (!known.allImages() && !key.statusOnly()) {
            scope.stream().filter(name -> !images.containsKey(name))
                    .forEach(name -> gateway.followed(idp, name).ifPresent(i -> images.put(name, i)));
        }
        RolloutPlanner.Request request = new RolloutPlanner.Request(idp, images, scope, deployment, clock.instant());
        return new RolloutViews(!fresh && known.deployment() != null ? nameTaken(request) : request, key);
    }

    /**
     * The request with the Deployment of the ImageDeploy's name, when the watch of managed Deployments shows none
     * and the plan would create it: that watch does not show a Deployment Rekon does not manage, and the planner
     * refuses to take its name ({@link RolloutPlanner#CONFLICT}), so the page, a report and the write plan the
     * same. A converged pass plans no create, and a free name is not read.
     */
    private RolloutPlanner.Request nameTaken(RolloutPlanner.Request r) {
        if (r.deployment().isPresent() || !(planner.plan(r) instanceof RolloutPlan.Create)) {
            return r;
        }
        ImageDeployView idp = r.imageDeploy();
        return byName.apply(idp.namespace(), idp.deploymentName())
                .map(d -> new RolloutPlanner.Request(idp, r.images(), r.concerned(), Optional.of(d), r.now()))
                .orElse(r);
    }

    /** A resync's write reads the Deployment again: its watch does not show one without Rekon's label. */
    @Override
    public RolloutKey writing(RolloutKey key) {
        return key.readingTheDeployment();
    }

    /**
     * The planner's plan; after an earlier attempt's Deployment write stood, the status that reports it; for a
     * Deployment's change, only the status that follows its rollout.
     */
    @Override
    public RolloutStep plan(RolloutViews views) {
        RolloutPlanner.Request request = views.request();
        if (views.key().statusOnly()) {
            ImageDeployView idp = request.imageDeploy();
            return RolloutStep.of(idp, new RolloutPlan.NoChange("RolloutObserved", "the status of ImageDeploy "
                    + idp.name() + " follows its Deployment's rollout", planner.observed(request)), views.key());
        }
        RolloutPlan applied = views.key().earlier().applied();
        if (applied != null) {
            return RolloutStep.after(request.imageDeploy(), applied, planner.statusPass(request, applied), views.key());
        }
        return RolloutStep.of(request.imageDeploy(), planner.plan(request), views.key());
    }
}
