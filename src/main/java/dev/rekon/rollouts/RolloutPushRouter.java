package dev.rekon.rollouts;

import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.rekon.cluster.InstalledKinds;
import dev.rekon.core.Reply;
import dev.rekon.pipeline.ReconcileLoop;
import dev.rekon.registry.ImageReference;
import dev.rekon.rollouts.plan.PushRolloutPlanner;
import dev.rekon.rollouts.view.PushSubscriber;
import dev.rekon.rollouts.watch.ImageDeployPushIndex;
import dev.rekon.webhooks.ImagePushed;
import dev.rekon.webhooks.PushRouter;
import dev.rekon.webhooks.Subscription;

/**
 * Turns a registry push into one {@link PushKey} per ImageDeploy (in the allowed namespaces) with an update
 * policy whose containers name the pushed repository directly, found by {@link ImageDeployPushIndex}, and runs
 * each through the one {@link ReconcileLoop} with {@link PushReconciler}: planned under its
 * {@code spec.updatePolicy} ({@link PushRolloutPlanner}), written Deployment first, then status, planned again
 * from fresh reads after a lost race.
 */
@ApplicationScoped
public class RolloutPushRouter implements PushRouter {

    @Inject
    ImageDeployPushIndex index;

    @Inject
    PushReconciler pushes;

    @Inject
    ReconcileLoop loop;

    @Inject
    InstalledKinds kinds;

    @Override
    public Subscription subscription(ImagePushed push) {
        if (!kinds.installed(InstalledKinds.IMAGE_DEPLOY)) {
            return Subscription.NONE;
        }
        List<PushSubscriber> following = index.following(push.repositoryReference());
        return new Subscription(following.stream().map(PushSubscriber::describe).toList(), push.tag() != null,
                following.stream().map(PushSubscriber::pullSecrets).toList());
    }

    @Override
    public Reply route(ImagePushed push) {
        if (push.tag() == null) {
            return Reply.unchanged("NotAVersion", "push of " + push.reference() + " has no tag; image rollouts follow"
                    + " version tags", List.of());
        }
        ImageReference pushed = new ImageReference(push.registry(), push.repository(), push.tag(), push.digest());
        List<PushKey> keys = index.following(push.repositoryReference()).stream().map(s -> PushKey.of(s, pushed))
                .toList();
        return loop.reconcileAll(pushes, keys, Reply.unchanged("NoImageDeploys", "no ImageDeploy with an update"
                + " policy names " + pushed.repositoryKey() + " as a container image", List.of()));
    }
}
