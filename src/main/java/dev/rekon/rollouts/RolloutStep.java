package dev.rekon.rollouts;

import java.util.List;

import dev.rekon.core.ObjectRef;
import dev.rekon.core.Reply;
import dev.rekon.pipeline.Reconciler;
import dev.rekon.rollouts.plan.RolloutPlan;
import dev.rekon.rollouts.view.ImageDeployStatus;
import dev.rekon.rollouts.view.ImageDeployView;

/**
 * One ImageDeploy's plan as the loop carries it, whatever the input (a build, a change of the ImageDeploy, a
 * push, a resync): the {@link RolloutPlan} (the Deployment write, and the status it decides, null when equal), the
 * ImageDeploy version both were planned from, the reply, and the key it was planned for. After the key's
 * Deployment write stood ({@link EarlierWrite}), the step writes only the status and answers that rollout.
 */
record RolloutStep(ImageDeployView imageDeploy, RolloutPlan plan, Reply reply, ImageDeployKey key)
        implements Reconciler.Plan {

    /** The step of a plan made from the views as they are. */
    static RolloutStep of(ImageDeployView idp, RolloutPlan plan, ImageDeployKey key) {
        return new RolloutStep(idp, plan, new Reply(plan.outcome(), plan.reason(), plan.message(), touched(idp)),
                key);
    }

    /**
     * The step after {@code applied}'s Deployment write stood (its status pass, or an attempt after its status
     * write lost a race): only the {@code status} planned again from the views as they are now (null: nothing to
     * write), answering the rollout applied.
     */
    static RolloutStep after(ImageDeployView idp, RolloutPlan applied, ImageDeployStatus status, ImageDeployKey key) {
        RolloutPlan statusOnly = new RolloutPlan.NoChange(applied.reason(), applied.message(), status);
        return new RolloutStep(idp, statusOnly, new Reply(applied.outcome(), applied.reason(), applied.message(),
                touched(idp)), key);
    }

    /** Whether applying the step writes anything: the Deployment, or a status that differs. */
    @Override
    public boolean writes() {
        return plan instanceof RolloutPlan.Create || plan instanceof RolloutPlan.PatchImages || plan.status() != null;
    }

    /** The answer when the ImageDeploy an input names no longer exists. */
    static Reply imageDeployGone(String namespace, String name) {
        return Reply.unchanged("ImageDeployNotFound", "ImageDeploy " + namespace + "/" + name + " no longer exists",
                List.of());
    }

    static List<ObjectRef> touched(ImageDeployView idp) {
        return List.of(idp.ref(), deploymentOf(idp));
    }

    static ObjectRef deploymentOf(ImageDeployView idp) {
        return new ObjectRef("apps/v1", "Deployment", idp.namespace(), idp.deploymentName());
    }
}
