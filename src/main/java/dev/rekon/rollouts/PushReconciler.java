package dev.rekon.rollouts;

import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;

import dev.rekon.rollouts.plan.PushRolloutPlanner;
import dev.rekon.rollouts.plan.RolloutPlan;
import dev.rekon.rollouts.plan.RolloutPlanner;
import dev.rekon.rollouts.view.DeploymentView;
import dev.rekon.rollouts.view.ImageDeployView;

/**
 * A registry push as the one reconcile loop runs it, for one ImageDeploy that follows the pushed repository:
 * reads the ImageDeploy with its update policy (always from the apiserver) and its Deployment (cache or read,
 * fresh after a lost race), plans with the pure {@link PushRolloutPlanner}, and has {@link RolloutApplier} write
 * the Deployment guarded by the resourceVersion it was planned from, then the status. Of two racing pushes the
 * loser is planned again from fresh reads, so a lower version never replaces a higher one.
 */
@ApplicationScoped
public class PushReconciler extends ImageDeployReconciler<PushKey, PushReconciler.Views> {

    /** What one push attempt plans from, and the key, which remembers what an earlier attempt already wrote. */
    public record Views(PushRolloutPlanner.Request request, PushKey key) {
    }

    private final PushRolloutPlanner planner = new PushRolloutPlanner();

    @Override
    public Optional<Views> load(PushKey key, boolean fresh) {
        return gateway.imageDeployFollowing(key.group(), key.namespace(), key.name()).map(f -> {
            ImageDeployView idp = f.view();
            Optional<DeploymentView> deployment = fresh ? gateway.deployment(idp.namespace(), idp.deploymentName())
                    : gateway.deploymentCachedOrRead(idp.namespace(), idp.deploymentName());
            return new Views(new PushRolloutPlanner.Request(idp, f.spec(), key.pushed(), deployment, clock.instant()),
                    key);
        });
    }

    /**
     * The push planner's plan; after an earlier attempt's Deployment write stood, the status of the Deployment as
     * it runs now when it runs the push (a newer push that won writes its own).
     */
    @Override
    public RolloutStep plan(Views views) {
        ImageDeployView idp = views.request().imageDeploy();
        RolloutPlan plan = planner.plan(views.request());
        RolloutPlan applied = views.key().earlier().applied();
        if (applied != null) {
            return RolloutStep.after(idp, applied, RolloutPlanner.UP_TO_DATE.equals(plan.reason()) ? plan.status() : null,
                    views.key());
        }
        return RolloutStep.of(idp, plan, views.key());
    }
}
