package dev.rekon.rollouts;

import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.rekon.core.ObjectRef;
import dev.rekon.core.Reply;
import dev.rekon.pipeline.ApiRefusals;
import dev.rekon.pipeline.ConflictRetry;
import dev.rekon.pipeline.Replies;
import dev.rekon.rollouts.RolloutInput.ImageDeleted;
import dev.rekon.rollouts.RolloutInput.ImageDeployChanged;
import dev.rekon.rollouts.RolloutInput.ImageDeployDeleted;
import dev.rekon.rollouts.RolloutInput.ImageReported;

/**
 * Runs image rollouts: reads what the planner needs (ImageDeploys and managed Deployments from watch caches),
 * asks {@link RolloutPlanner} for a plan per ImageDeploy, has {@link RolloutApplier} apply it, and answers
 * with one reply. The Deployment's write is guarded by the resourceVersion the plan was made from and records
 * the applied builds in its annotation: of two racing events only one wins it, and the loser plans again from
 * fresh reads ({@link ConflictRetry}) that show the newer build, so a late event never moves it backwards.
 */
@ApplicationScoped
public class RolloutService {

    @Inject
    RolloutGateway gateway;

    @Inject
    RolloutApplier applier;

    @Inject
    ImageDeployDeletion deletion;

    @Inject
    Clock clock;

    private final RolloutPlanner planner = new RolloutPlanner();

    public Reply handle(RolloutInput input) {
        if (input instanceof ImageReported r) {
            return r.image() != null ? imageBuilt(r.image()) : gateway.image(r.namespace(), r.name())
                    .map(this::imageBuilt).orElseGet(() -> Reply.unchanged("ImageNotFound", "kpack Image "
                            + r.namespace() + "/" + r.name() + " no longer exists", List.of()));
        }
        if (input instanceof ImageDeleted d) {
            return Reply.unchanged("ImageDeleted", "kpack Image " + d.namespace() + "/" + d.name()
                    + " was deleted; Deployments keep the image they run", List.of());
        }
        if (input instanceof ImageDeployChanged c) {
            return gateway.imageDeploy(c.group(), c.namespace(), c.name()).map(this::imageDeployChanged)
                    .orElseGet(() -> notFound(c.namespace(), c.name()));
        }
        return deletion.imageDeployDeleted((ImageDeployDeleted) input);
    }

    private Reply imageBuilt(KpackImage image) {
        if (!image.rollable()) {
            return Reply.unchanged("ImageNotReady", "kpack Image " + image.namespace() + "/" + image.name()
                    + " is not ready: " + image.notReadyMessage() + "; nothing to roll out", List.of());
        }
        List<ImageDeployView> targets = gateway.imageDeploysReferencing(image.namespace(), image.name());
        List<Reply> replies = new ArrayList<>();
        for (ImageDeployView idp : targets) {
            replies.add(retrying(idp, (current, fresh) -> rollOut(current,
                    new LinkedHashMap<>(Map.of(image.name(), image)), Set.of(image.name()), fresh)));
        }
        return Replies.combine(replies, Reply.unchanged("NoImageDeploys", "no ImageDeploy in namespace "
                + image.namespace() + " references kpack Image " + image.name() + " (write its image as REF="
                + image.name() + ")", List.of()));
    }

    /** Brings the ImageDeploy's Deployment in line with the current Images it references. */
    public Reply imageDeployChanged(ImageDeployView idp) {
        return retrying(idp, (current, fresh) -> {
            Set<String> names = new LinkedHashSet<>();
            current.refs().forEach(r -> names.add(r.imageName()));
            Map<String, KpackImage> images = new LinkedHashMap<>();
            names.forEach(name -> gateway.image(current.namespace(), name).ifPresent(i -> images.put(name, i)));
            return rollOut(current, images, names, fresh);
        });
    }

    /** A resync found the ImageDeploy behind: handled as its update event, with the Images its watch holds. */
    public Reply converge(ImageDeployView idp, Map<String, KpackImage> images) {
        Set<String> names = new LinkedHashSet<>();
        idp.refs().forEach(r -> names.add(r.imageName()));
        return retrying(idp, (current, fresh) -> rollOut(current, new LinkedHashMap<>(images), names, fresh));
    }

    /** One rollout attempt; {@code fresh} when the reads must bypass the watch caches. */
    interface Rollout {
        Reply run(ImageDeployView idp, boolean fresh);
    }

    /** A rollout of one ImageDeploy, planned again from fresh reads when its write loses a race. */
    private Reply retrying(ImageDeployView seen, Rollout rollout) {
        return ApiRefusals.asReply(touched(seen), () -> ConflictRetry.run(fresh -> {
            Optional<ImageDeployView> current = fresh
                    ? gateway.imageDeploy(seen.group(), seen.namespace(), seen.name()) : Optional.of(seen);
            return current.map(idp -> rollout.run(idp, fresh)).orElseGet(() -> notFound(seen.namespace(), seen.name()));
        }));
    }

    private Reply rollOut(ImageDeployView idp, Map<String, KpackImage> images, Set<String> concerned, boolean fresh) {
        Optional<DeploymentView> deployment = fresh ? gateway.deployment(idp.namespace(), idp.deploymentName())
                : gateway.deploymentCachedOrRead(idp.namespace(), idp.deploymentName());
        Set<String> scope = concerned;
        if (deployment.isEmpty()) {
            // A new Deployment needs every referenced image, not only the one this event is about.
            scope = new LinkedHashSet<>(concerned);
            for (var ref : idp.refs()) {
                if (scope.add(ref.imageName())) {
                    gateway.image(idp.namespace(), ref.imageName()).ifPresent(i -> images.put(i.name(), i));
                }
            }
        }
        Set<String> planned = scope;
        RolloutPlan plan = planner.plan(new RolloutPlanner.Request(idp, images, planned, deployment, clock.instant()));
        applier.writeDeploymentThenReport(idp, plan, reread -> planner.statusAfter(new RolloutPlanner.Request(reread,
                images, planned, gateway.deployment(reread.namespace(), reread.deploymentName()), clock.instant()), plan));
        return new Reply(plan.outcome(), plan.reason(), plan.message(), touched(idp));
    }

    static List<ObjectRef> touched(ImageDeployView idp) {
        return List.of(idp.ref(), RolloutApplier.deploymentOf(idp));
    }

    static Reply notFound(String namespace, String name) {
        return Reply.unchanged("ImageDeployNotFound", "ImageDeploy " + namespace + "/" + name + " no longer exists",
                List.of());
    }
}
