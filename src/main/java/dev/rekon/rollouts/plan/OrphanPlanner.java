package dev.rekon.rollouts.plan;

import java.util.List;
import java.util.Optional;

import dev.rekon.core.ObjectRef;
import dev.rekon.core.Reply;
import dev.rekon.pipeline.Reconciler;
import dev.rekon.rollouts.RolloutInput.ImageDeployDeleted;
import dev.rekon.rollouts.view.DeploymentView;
import dev.rekon.rollouts.view.ImageDeployView;

/**
 * Decides what an ImageDeploy's deletion does to the Deployment it leaves behind: deleted, guarded by the
 * resourceVersion it was planned from, when the ImageDeploy owns it and is really gone (a garbage collector
 * would do the same through the ownerReference, but none may be running); kept when the ImageDeploy exists
 * again, when the Deployment is not its own, or when it is already gone. Pure.
 */
public final class OrphanPlanner {

    /**
     * What the decision is made from.
     *
     * @param now        the ImageDeploy as it is now (present when it exists again)
     * @param target     the name of the Deployment it left behind
     * @param deployment that Deployment, if it exists
     */
    public record Views(ImageDeployDeleted deleted, Optional<ImageDeployView> now, String target,
            Optional<DeploymentView> deployment) {
    }

    /** The decision: the Deployment to delete (null: keep it), and the reply. */
    public record Plan(DeploymentView delete, Reply reply) implements Reconciler.Plan {
    }

    private OrphanPlanner() {
    }

    public static Plan plan(Views v) {
        ImageDeployDeleted d = v.deleted();
        if (v.now().isPresent()) {
            return keep(Reply.unchanged("ImageDeployExists", "ImageDeploy " + d.namespace() + "/" + d.name()
                    + " exists again (uid " + v.now().get().uid() + "); its Deployment is kept", List.of()));
        }
        ObjectRef ref = new ObjectRef("apps/v1", "Deployment", d.namespace(), v.target());
        String deployment = "Deployment " + d.namespace() + "/" + v.target();
        if (v.deployment().isEmpty()) {
            return keep(Reply.unchanged("NoDeployment", deployment + " is already gone", List.of(ref)));
        }
        if (!ownedBy(v.deployment().get(), d.name(), d.uid())) {
            return keep(Reply.unchanged("NotOwned", deployment + " is not owned by ImageDeploy " + d.name()
                    + "; it is left in place", List.of(ref)));
        }
        return new Plan(v.deployment().get(), Reply.applied("DeploymentDeleted", "deleted " + deployment
                + " of the deleted ImageDeploy " + d.name(), List.of(ref)));
    }

    private static Plan keep(Reply reply) {
        return new Plan(null, reply);
    }

    /** Whether an ImageDeploy owner reference names it (and its uid, when the deletion carried one). */
    static boolean ownedBy(DeploymentView d, String name, String uid) {
        for (var o : d.ownerReferences()) {
            if ("ImageDeploy".equals(o.kind()) && name.equals(o.name()) && (uid == null || uid.equals(o.uid()))) {
                return true;
            }
        }
        return false;
    }
}
