package dev.rekon.rollouts.plan;

import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import dev.rekon.cluster.Conditions.Condition;
import dev.rekon.cluster.Conditions;
import dev.rekon.core.Outcome;
import dev.rekon.rollouts.view.DeploymentView;
import dev.rekon.rollouts.view.ImageDeployStatus;
import dev.rekon.rollouts.view.ImageDeployView;
import dev.rekon.rollouts.view.KpackImage;
import dev.rekon.rollouts.view.RolloutNames;

/**
 * Decides how one ImageDeploy's Deployment follows its kpack Images: reject a spec no event can fix or a
 * Deployment that is not Rekon's, then create it ({@link NewDeploymentPlanner}) or patch only the images that
 * changed ({@link ImagePatchPlanner}), from the builds that may roll out ({@link Candidates}). It never goes
 * backwards (an older build than the one applied is ignored), never writes twice (a status that already says the
 * same is not written), and touches nothing but images. Pure: the same request always gives the same plan.
 */
public final class RolloutPlanner {

    public static final String READY = "Ready";
    public static final String PROGRESSING = "Progressing";
    public static final String IN_SYNC = ManualChanges.IN_SYNC;
    public static final String SUSPENDED = "Suspended";
    public static final String CONFLICT = "DeploymentConflict";
    public static final String UP_TO_DATE = "UpToDate";

    /**
     * The facts one plan is made from.
     *
     * @param images     the kpack Images read for this event, by name; a name in {@code concerned} that is
     *                   absent here does not exist in the cluster
     * @param concerned  the Image names this event is about: one for an Image event, all references for an
     *                   ImageDeploy event
     * @param deployment the live Deployment, if there is one
     */
    public record Request(ImageDeployView imageDeploy, Map<String, KpackImage> images, Set<String> concerned,
            Optional<DeploymentView> deployment, Instant now) {
    }

    public RolloutPlan plan(Request r) {
        ImageDeployView idp = r.imageDeploy();
        String problem = idp.specProblem();
        if (problem != null) {
            return RolloutWording.rejected(r, "InvalidSpec", problem);
        }
        String foreign = r.deployment().filter(d -> !d.managedByRekon() && !d.ownedBy(idp.uid()))
                .map(DeploymentView::name).orElse(null);
        if (foreign != null) {
            return RolloutWording.rejected(r, CONFLICT, "Deployment " + foreign + " exists but is not Rekon's (no label "
                    + RolloutNames.MANAGED_BY + "=rekon, not owned by ImageDeploy " + idp.name()
                    + "); it is left alone: rename spec.deployment.metadata.name, or delete that Deployment to let Rekon"
                    + " create its own");
        }
        Candidates c = Candidates.of(r);
        if (!c.missing().isEmpty()) {
            return RolloutWording.rejected(r, "ImageNotFound", "kpack Image " + RolloutWording.names(c.missing())
                    + " referenced by ImageDeploy " + idp.name() + " does not exist in namespace " + idp.namespace()
                    + ": create it or fix the REF= image");
        }
        RolloutPlan plan = r.deployment().isEmpty() ? NewDeploymentPlanner.plan(r, c)
                : ImagePatchPlanner.plan(r, c, r.deployment().get());
        return idp.suspend() && plan instanceof RolloutPlan.NoChange n && !SUSPENDED.equals(n.reason())
                ? new RolloutPlan.NoChange(SUSPENDED, RolloutWording.suspendedPrefix(idp) + n.message(), n.status())
                : plan;
    }

    /**
     * The status when only the Deployment changed: {@code RolledOut} as its rollout says, the builds its
     * annotation records, and the completed rollouts ({@link RolloutHistory}); the rest of the status and the
     * Deployment stay as they are (a build that waits rolls out on its own event). Null when there is nothing to
     * write, or the Deployment is not Rekon's or says nothing of its rollout.
     */
    public ImageDeployStatus observed(Request r) {
        ImageDeployView idp = r.imageDeploy();
        DeploymentView d = r.deployment().orElse(null);
        Condition rolledOut = RolledOut.of(d);
        if (rolledOut == null || idp.specProblem() != null || !d.managedByRekon() && !d.ownedBy(idp.uid())) {
            return null;
        }
        ImageDeployStatus current = idp.currentStatus();
        var conditions = Conditions.set(current.conditions(), rolledOut, idp.generation(), r.now());
        var images = RolloutStatus.images(RolloutStatus.memory(r), Map.of(), r.now());
        ImageDeployStatus next = new ImageDeployStatus(null, null, images, null, conditions,
                RolloutHistory.next(current.history(), images, conditions, r.now()));
        return next.sameAs(current) ? null : next;
    }

    /**
     * The status to write when the status write of {@code applied} met a conflict after its Deployment write
     * had succeeded: planned again from fresh reads, which now find the Deployment up to date, with the
     * Progressing condition of the rollout that did it. Null when there is nothing to write, or when the
     * Deployment has moved on since (the event that moved it writes its own status).
     */
    public ImageDeployStatus statusAfter(Request fresh, RolloutPlan applied) {
        RolloutPlan again = plan(fresh);
        if (applied.outcome() != Outcome.APPLIED) {
            return again.status();
        }
        if (!UP_TO_DATE.equals(again.reason())) {
            return null;
        }
        ImageDeployStatus current = fresh.imageDeploy().currentStatus();
        ImageDeployStatus next = again.status() != null ? again.status()
                : new ImageDeployStatus(null, null, null, null, current.conditions());
        next = next.withConditions(Conditions.set(next.conditions(),
                Condition.isTrue(PROGRESSING, applied.reason(), applied.message()), fresh.imageDeploy().generation(),
                fresh.now()));
        return next.sameAs(current) ? null : next;
    }

    /**
     * The status a rollout's status pass writes: {@link #statusAfter}, or, when that leaves the status as it is
     * because the Deployment has moved on, what {@link #observed} says of its rollout. A pass that a Deployment's
     * change ran early ({@code StatusPasses#follow}) thus also writes what that change's own pass would have.
     */
    public ImageDeployStatus statusPass(Request fresh, RolloutPlan applied) {
        ImageDeployStatus after = statusAfter(fresh, applied);
        return after != null ? after : observed(fresh);
    }
}
