package dev.rekon.rollouts;

import java.util.List;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.rekon.cluster.EventRecorder;
import dev.rekon.core.ObjectRef;
import dev.rekon.core.Reply;
import dev.rekon.pipeline.Reconciler;
import dev.rekon.rollouts.apply.RolloutGateway;
import dev.rekon.rollouts.plan.PrunePlanner;
import dev.rekon.rollouts.view.DeploymentView;
import dev.rekon.rollouts.view.ImageDeployView;

/**
 * Pruning as the one reconcile loop runs it, for one managed Deployment a resync (or the status page) found:
 * the owning ImageDeploy from the watch in report mode, from the apiserver before a delete ({@link
 * PruneKey#confirming}: only for a Deployment the watch says goes, never in a converged cluster); the Deployment
 * read again only after a lost race. The pure {@link PrunePlanner} decides; the delete is guarded by the uid and
 * resourceVersion it was planned from, and recorded as an Event on the Deployment and its ImageDeploy.
 */
@ApplicationScoped
public class PruneReconciler implements Reconciler<PruneKey, PrunePlanner.Views, PrunePlanner.Plan> {

    @Inject
    RolloutGateway gateway;

    @Inject
    EventRecorder events;

    /** A reconciler over the given gateway and Events, outside CDI. */
    public static PruneReconciler on(RolloutGateway gateway, EventRecorder events) {
        PruneReconciler r = new PruneReconciler();
        r.gateway = gateway;
        r.events = events;
        return r;
    }

    @Override
    public ObjectRef subject(PruneKey key) {
        return PrunePlanner.ref(key.seen());
    }

    @Override
    public PruneKey writing(PruneKey key) {
        return key.confirming();
    }

    @Override
    public Reply gone(PruneKey key) {
        return Reply.unchanged("NoDeployment", "Deployment " + key.seen().namespace() + "/" + key.seen().name()
                + " is already gone", List.of());
    }

    @Override
    public Optional<PrunePlanner.Views> load(PruneKey key, boolean fresh) {
        DeploymentView seen = key.seen();
        Optional<DeploymentView> live = fresh ? gateway.deployment(seen.namespace(), seen.name()) : Optional.of(seen);
        return live.map(d -> new PrunePlanner.Views(seen, d, owner(key, fresh), key.groups()));
    }

    private Optional<ImageDeployView> owner(PruneKey key, boolean fresh) {
        PrunePlanner.Owner o = PrunePlanner.Owner.of(key.seen());
        if (o == null || !key.groups().contains(o.group())) {
            return Optional.empty();
        }
        return key.owner() != null && !fresh ? key.owner()
                : gateway.imageDeploy(o.group(), key.seen().namespace(), o.name());
    }

    @Override
    public PrunePlanner.Plan plan(PrunePlanner.Views views) {
        return PrunePlanner.plan(views);
    }

    @Override
    public void apply(PrunePlanner.Plan plan) {
        if (plan.writes()) {
            remove(plan);
        }
    }

    /** Deletes the Deployment as planned from, and records it on the Deployment and its ImageDeploy. */
    private void remove(PrunePlanner.Plan plan) {
        gateway.deleteDeployment(plan.delete());
        String message = plan.reply().message().replaceFirst("^deletes", "deleted");
        events.normal(PrunePlanner.ref(plan.delete()), PrunePlanner.REASON, message);
        plan.owner().ifPresent(idp -> events.normal(idp.ref(), PrunePlanner.REASON, message));
    }
}
