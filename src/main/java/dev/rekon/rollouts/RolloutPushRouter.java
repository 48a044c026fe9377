package dev.rekon.rollouts;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import com.fasterxml.jackson.databind.JsonNode;

import dev.rekon.core.ObjectRef;
import dev.rekon.core.Reply;
import dev.rekon.pipeline.ApiRefusals;
import dev.rekon.pipeline.NamespaceGuard;
import dev.rekon.pipeline.Replies;
import dev.rekon.registry.ImageReference;
import dev.rekon.webhooks.ImagePushed;
import dev.rekon.webhooks.PushRouter;

/**
 * Rolls a registry push out to the ImageDeploys (in the allowed namespaces) whose containers name the pushed
 * repository directly, each under its {@code spec.updatePolicy} ({@link PushRolloutPlanner}): the Deployment's
 * image is patched guarded by its resourceVersion, then the ImageDeploy status, and an Event is recorded on both.
 */
@ApplicationScoped
public class RolloutPushRouter implements PushRouter {

    @Inject
    RolloutGateway gateway;

    @Inject
    RolloutApplier applier;

    @Inject
    NamespaceGuard guard;

    @Inject
    Clock clock;

    private final PushRolloutPlanner planner = new PushRolloutPlanner();

    @Override
    public Reply route(ImagePushed push) {
        if (push.tag() == null) {
            return Reply.unchanged("NotAVersion", "push of " + push.reference() + " has no tag; image rollouts follow"
                    + " version tags", List.of());
        }
        ImageReference pushed = new ImageReference(push.registry(), push.repository(), push.tag(), push.digest());
        return ApiRefusals.asReply(List.of(), () -> {
            List<Reply> replies = new ArrayList<>();
            for (JsonNode object : gateway.imageDeploysEverywhere()) {
                ImageDeployView idp = ImageDeployView.fromJson(object);
                if (guard.allows(idp.namespace()) && !PushRolloutPlanner.followers(idp, pushed).isEmpty()) {
                    replies.add(rollOut(idp, object.path("spec"), pushed));
                }
            }
            return Replies.combine(replies, Reply.unchanged("NoImageDeploys", "no ImageDeploy names "
                    + pushed.repositoryKey() + " as a container image", List.of()));
        });
    }

    private Reply rollOut(ImageDeployView idp, JsonNode spec, ImageReference pushed) {
        var deployment = gateway.deployment(idp.namespace(), idp.deploymentName());
        RolloutPlan plan = planner.plan(new PushRolloutPlanner.Request(idp, spec, pushed, deployment, clock.instant()));
        List<ObjectRef> touched = RolloutService.touched(idp);
        return ApiRefusals.asReply(touched, () -> {
            applier.writeStatusThenDeployment(idp, plan);
            return new Reply(plan.outcome(), plan.reason(), plan.message(), touched);
        });
    }
}
