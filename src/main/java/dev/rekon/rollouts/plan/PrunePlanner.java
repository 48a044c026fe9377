package dev.rekon.rollouts.plan;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;


import dev.rekon.core.ObjectRef;
import dev.rekon.core.Reply;
import dev.rekon.pipeline.Reconciler;
import dev.rekon.rollouts.view.DeploymentView;
import dev.rekon.rollouts.view.ImageDeployView;

/**
 * Decides whether a resync deletes one managed Deployment, the only place that decides it (the status page shows
 * these plans): deleted when Rekon labelled it ({@code app.kubernetes.io/managed-by=rekon}) and an ImageDeploy of
 * a watched group owns it (an ownerReference) that no longer exists, or that now names another Deployment
 * ({@code spec.deployment.metadata.name} renamed). Owner references only cover the first case, and only where a
 * garbage collector runs. Kept: no label, no ImageDeploy ownerReference, an owner of another API group, an owner
 * that is suspended (it holds every change) or still names it. The delete is guarded by the uid and
 * resourceVersion of the Deployment as the pass saw it: one changed or replaced since is left for the next pass,
 * which shows it again. Pure.
 */
public final class PrunePlanner {

    public static final String REASON = "DeploymentPruned";
    /** The Deployment changed or was replaced since the pass planned from it: not deleted this pass. */
    public static final String CHANGED = "DeploymentChangedSincePlanned";
    public static final String GONE = "ImageDeployGone";
    public static final String RENAMED = "ImageDeployRenamed";

    /**
     * What the decision is made from.
     *
     * @param planned the Deployment as the pass saw it (its watch)
     * @param live    the Deployment now: the same as {@code planned} from the watch, or read again after a lost race
     * @param owner   the owning ImageDeploy now (empty: gone); unread when the Deployment has no owner to read
     * @param groups  the ImageDeploy groups whose watch answered: Deployments owned by another group stay
     */
    public record Views(DeploymentView planned, DeploymentView live, Optional<ImageDeployView> owner,
            Set<String> groups) {
    }

    /**
     * The decision.
     *
     * @param delete      the Deployment to delete, as planned from (null: keep it)
     * @param imageDeploy the owning ImageDeploy's name (null: none)
     * @param why         {@value #GONE} or {@value #RENAMED} when deleted, else why it is kept
     * @param owner       the owning ImageDeploy, when it exists (its Events name the delete too)
     */
    public record Plan(DeploymentView delete, String imageDeploy, String why, Optional<ImageDeployView> owner,
            Reply reply) implements Reconciler.Plan {

        @Override
        public boolean writes() {
            return delete != null;
        }
    }

    private PrunePlanner() {
    }

    /** The owner reference to an ImageDeploy, as {@code group} and {@code name}; null when there is none. */
    public record Owner(String group, String name) {

        public static Owner of(DeploymentView d) {
            DeploymentView.Owner o = d.imageDeployOwner();
            return o == null ? null : new Owner(o.group(), o.name() == null ? "" : o.name());
        }
    }

    public static Plan plan(Views v) {
        DeploymentView d = v.planned();
        ObjectRef ref = ref(d);
        String deployment = "Deployment " + d.namespace() + "/" + d.name();
        Owner owner = Owner.of(d);
        String name = owner == null ? null : owner.name();
        if (!d.managedByRekon()) {
            return keep(name, "NotManaged", deployment + " is not labelled as Rekon's", ref, v);
        }
        if (owner == null) {
            return keep(null, "NoOwner", deployment + " has no ImageDeploy ownerReference", ref, v);
        }
        if (!v.groups().contains(owner.group())) {
            return keep(name, "ForeignOwner", deployment + " is owned by an ImageDeploy of group " + owner.group()
                    + ", which Rekon does not watch here", ref, v);
        }
        if (v.owner().isPresent() && v.owner().get().deploymentName().equals(d.name())) {
            return keep(name, "Wanted", "ImageDeploy " + name + " describes " + deployment, ref, v);
        }
        if (v.owner().isPresent() && v.owner().get().suspend()) {
            return keep(name, "Suspended", "ImageDeploy " + name + " is suspended: " + deployment
                    + " is kept while it holds every change", ref, v);
        }
        if (!Objects.equals(v.live().uid(), d.uid())
                || !Objects.equals(v.live().resourceVersion(), d.resourceVersion())) {
            return keep(name, CHANGED, "not pruned: " + deployment + " changed or was replaced since this pass read"
                    + " it; the next pass plans it again", ref, v);
        }
        String because = v.owner().isEmpty() ? "its ImageDeploy " + name + " no longer exists"
                : "ImageDeploy " + name + " now names Deployment " + v.owner().get().deploymentName()
                        + " (spec.deployment.metadata.name)";
        return new Plan(d, name, v.owner().isEmpty() ? GONE : RENAMED, v.owner(),
                Reply.applied(REASON, "deletes " + deployment + ": " + because, List.of(ref)));
    }

    private static Plan keep(String imageDeploy, String why, String message, ObjectRef ref, Views v) {
        return new Plan(null, imageDeploy, why, v.owner(), Reply.unchanged(why, message, List.of(ref)));
    }

    public static ObjectRef ref(DeploymentView d) {
        return new ObjectRef("apps/v1", "Deployment", d.namespace(), d.name());
    }
}
