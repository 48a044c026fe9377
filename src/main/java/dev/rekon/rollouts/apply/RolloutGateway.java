package dev.rekon.rollouts.apply;

import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

import com.fasterxml.jackson.databind.JsonNode;

import dev.rekon.rollouts.plan.ImagePatch;
import dev.rekon.rollouts.plan.NewDeployment;
import dev.rekon.rollouts.view.DeploymentView;
import dev.rekon.rollouts.view.ImageDeployStatus;
import dev.rekon.rollouts.view.ImageDeployView;
import dev.rekon.rollouts.view.KpackImage;

/**
 * All I/O of image rollouts. Reads answer empty for what does not exist; failures are sorted at this edge: a
 * {@link dev.rekon.core.TransientFailureException} (unreachable, 5xx, 409 conflict) or a
 * {@link dev.rekon.core.RefusedException}. Every write is guarded by the resourceVersion the caller read, every
 * delete by the uid and resourceVersion too.
 */
public interface RolloutGateway {

    /** The API group of the kpack Image kind rollouts follow. */
    String imageGroup();

    /** The ImageDeploy groups handled: Rekon's, and kpush's when enabled, of those the cluster serves. */
    List<String> imageDeployGroups();

    /** Why an ImageDeploy of a configured group cannot be handled here (its CRD is missing); empty when it can. */
    Optional<String> imageDeployNotInstalled(String group);

    /** Why kpack Image events cannot be handled here (its CRD is missing); empty when they can. */
    Optional<String> imageNotInstalled();

    Optional<KpackImage> image(String namespace, String name);

    /** The same read, sent now and taken when the supplier is asked, so that it can go out with others. */
    default Supplier<Optional<KpackImage>> imageSent(String namespace, String name) {
        return () -> image(namespace, name);
    }

    /**
     * A PromotedImage, read as the kpack Image it stands in for (its status says the same); empty when it does not
     * exist, or where PromotedImages are not served.
     */
    default Optional<KpackImage> promotedImage(String namespace, String name) {
        return Optional.empty();
    }

    /** The object a REF= image of {@code idp} names: a kpack Image, or a PromotedImage when its refKind says so. */
    default Optional<KpackImage> followed(ImageDeployView idp, String name) {
        return idp.followsPromotedImages() ? promotedImage(idp.namespace(), name) : image(idp.namespace(), name);
    }

    /** Every ImageDeploy of the handled groups in the namespace whose REF= images name that PromotedImage. */
    default List<ImageDeployView> imageDeploysFollowingPromoted(String namespace, String name) {
        return List.of();
    }

    Optional<ImageDeployView> imageDeploy(String group, String namespace, String name);

    /** The ImageDeploy as its watch shows it; empty when the watch does not (or there is none). */
    default Optional<ImageDeployView> imageDeployWatched(String group, String namespace, String name) {
        return Optional.empty();
    }

    /** The object the ImageDeploy follows by that name as its watch shows it; empty when not watched (read it). */
    default Optional<KpackImage> followedSeen(ImageDeployView idp, String name) {
        return Optional.empty();
    }

    /** An ImageDeploy with its spec, whose {@code updatePolicy} says which pushes it follows. */
    record Followed(ImageDeployView view, JsonNode spec) {
    }

    /** The ImageDeploy as the apiserver has it now, with its spec: a push is never planned from an old policy. */
    Optional<Followed> imageDeployFollowing(String group, String namespace, String name);

    /** Every ImageDeploy of the handled groups in the namespace that references the kpack Image. */
    List<ImageDeployView> imageDeploysReferencing(String namespace, String imageName);

    /** The Deployment as the apiserver has it now. */
    Optional<DeploymentView> deployment(String namespace, String name);

    /**
     * The Deployment Rekon does not manage that holds this name, as the one watch of Deployments shows it (read
     * from the apiserver only while that watch has not synced); empty when the name is free.
     */
    Optional<DeploymentView> deploymentIfTaken(String namespace, String name);

    /** A Deployment Rekon manages as its watch last saw it, else as the apiserver has it. */
    Optional<DeploymentView> deploymentCachedOrRead(String namespace, String name);

    /** The name of the Deployment Rekon created for the ImageDeploy, found by its label. */
    Optional<String> deploymentLabelledFor(String namespace, String imageDeploy);

    /** Creates the Deployment; 409 when it exists already. */
    void createDeployment(NewDeployment deployment);

    /** Patches the Deployment's images; the patch carries the resourceVersion that guards it. */
    void patchDeployment(String namespace, String name, ImagePatch patch);

    /**
     * Deletes the Deployment as it was planned from, guarded by its uid and resourceVersion (a conflict when it
     * changed or was replaced since); false when it was gone.
     */
    boolean deleteDeployment(DeploymentView planned);

    /**
     * Writes {@code status} over the status of the ImageDeploy it was planned from (only the fields that change),
     * guarded by its resourceVersion; nothing when nothing changes.
     *
     * @return the resourceVersion the write gave the ImageDeploy; empty when nothing was written
     */
    Optional<String> writeStatus(ImageDeployView idp, ImageDeployStatus status);
}
