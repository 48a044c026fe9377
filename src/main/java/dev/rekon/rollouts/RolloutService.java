package dev.rekon.rollouts;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.rekon.cluster.Versioned;
import dev.rekon.core.Reply;
import dev.rekon.pipeline.ReconcileLoop;
import dev.rekon.rollouts.RolloutInput.ImageDeleted;
import dev.rekon.rollouts.RolloutInput.ImageDeployChanged;
import dev.rekon.rollouts.RolloutInput.ImageDeployDeleted;
import dev.rekon.rollouts.RolloutInput.ImageReported;
import dev.rekon.rollouts.apply.RolloutGateway;
import dev.rekon.rollouts.view.ImageDeployView;
import dev.rekon.rollouts.view.KpackImage;

/**
 * Finds which ImageDeploys a rollout input concerns and runs each through the one {@link ReconcileLoop}: an
 * Image's build goes to every ImageDeploy referencing it ({@link RolloutReconciler}), a changed ImageDeploy to
 * itself, a deleted one to the Deployment it leaves behind ({@link OrphanReconciler}). The loop plans, writes,
 * plans again from fresh reads after a lost race, and answers refusals per ImageDeploy.
 */
@ApplicationScoped
public class RolloutService {

    @Inject
    RolloutGateway gateway;

    @Inject
    RolloutReconciler rollouts;

    @Inject
    OrphanReconciler orphans;

    @Inject
    ReconcileLoop loop;

    public Reply handle(RolloutInput input) {
        if (input instanceof ImageReported r) {
            return r.image() != null ? imageBuilt(r.image()) : gateway.image(r.namespace(), r.name())
                    .map(this::imageBuilt).orElseGet(() -> Reply.unchanged("ImageNotFound", "kpack Image "
                            + r.namespace() + "/" + r.name() + " no longer exists", List.of()));
        }
        if (input instanceof RolloutInput.PromotedImageReported r) {
            return r.image() != null ? promotedBuilt(r.image()) : gateway.promotedImage(r.namespace(), r.name())
                    .map(this::promotedBuilt).orElseGet(() -> Reply.unchanged("ImageNotFound", "PromotedImage "
                            + r.namespace() + "/" + r.name() + " does not exist (deleted, or not served here)",
                            List.of()));
        }
        if (input instanceof ImageDeleted d) {
            return Reply.unchanged("ImageDeleted", "kpack Image " + d.namespace() + "/" + d.name()
                    + " was deleted; Deployments keep the image they run", List.of());
        }
        if (input instanceof ImageDeployChanged c) {
            return loop.reconcile(rollouts, changed(c));
        }
        return loop.reconcile(orphans, (ImageDeployDeleted) input);
    }

    /**
     * An ImageDeploy's change, planned from the newer of the event's copy and the watch's (with the kpack Images it
     * follows as their watch shows them): a burst of events about unchanged ImageDeploys, such as a label added to
     * all, or the echo of Rekon's own status writes, then costs no API call. A copy older than the apiserver's is
     * caught by the guarded writes (a conflict is planned again from fresh reads). Reference mode carries no copy:
     * the ImageDeploy is read.
     */
    private RolloutKey changed(ImageDeployChanged c) {
        if (c.object() == null) {
            return RolloutKey.changed(c.group(), c.namespace(), c.name());
        }
        ImageDeployView idp = gateway.imageDeployWatched(c.group(), c.namespace(), c.name())
                .filter(w -> !Versioned.olderThan(w.resourceVersion(), c.object().resourceVersion()))
                .orElse(c.object());
        Map<String, KpackImage> images = new LinkedHashMap<>();
        idp.refs().stream().map(r -> r.imageName()).distinct().forEach(name -> gateway.followedSeen(idp, name)
                .ifPresent(i -> images.put(name, i)));
        boolean all = idp.refs().stream().allMatch(r -> images.containsKey(r.imageName()));
        return RolloutKey.changedAsSeen(idp, images, all);
    }

    /** As {@link #imageBuilt}, for the ImageDeploys that follow PromotedImages. */
    private Reply promotedBuilt(KpackImage image) {
        if (!image.rollable()) {
            return Reply.unchanged("ImageNotReady", "PromotedImage " + image.namespace() + "/" + image.name()
                    + " is not ready: " + image.notReadyMessage() + "; nothing to roll out", List.of());
        }
        List<RolloutKey> keys = gateway.imageDeploysFollowingPromoted(image.namespace(), image.name()).stream()
                .map(idp -> RolloutKey.imageBuilt(idp, image)).toList();
        return loop.reconcileAll(rollouts, keys, Reply.unchanged("NoImageDeploys", "no ImageDeploy in namespace "
                + image.namespace() + " follows PromotedImage " + image.name() + " (spec.refKind: PromotedImage,"
                + " image REF=" + image.name() + ")", List.of()));
    }

    private Reply imageBuilt(KpackImage image) {
        if (!image.rollable()) {
            return Reply.unchanged("ImageNotReady", "kpack Image " + image.namespace() + "/" + image.name()
                    + " is not ready: " + image.notReadyMessage() + "; nothing to roll out", List.of());
        }
        List<RolloutKey> keys = gateway.imageDeploysReferencing(image.namespace(), image.name()).stream()
                .map(idp -> RolloutKey.imageBuilt(idp, image)).toList();
        return loop.reconcileAll(rollouts, keys, Reply.unchanged("NoImageDeploys", "no ImageDeploy in namespace "
                + image.namespace() + " references kpack Image " + image.name() + " (write its image as REF="
                + image.name() + ")", List.of()));
    }
}
