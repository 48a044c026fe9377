package dev.rekon.rollouts;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import dev.rekon.rollouts.view.DeploymentView;
import dev.rekon.rollouts.view.ImageDeployView;
import dev.rekon.rollouts.view.KpackImage;

/**
 * Names one ImageDeploy for the one loop ({@link RolloutReconciler}), with what the input is about and what it
 * already knows, so that the first attempt reads nothing it has: the kpack Images an Image event is about (with
 * the build it reported), or those a resync's watch holds; the ImageDeploy and Deployment as a watch showed them.
 * After a lost race the reconciler reads fresh and uses only the Images.
 *
 * @param concerned the Image names the input is about; null for every Image the ImageDeploy references
 * @param known     what the input knows of the objects; {@link Known#NOTHING} for an ImageDeploy event
 * @param statusOnly the status follows the Deployment's rollout, and nothing else is planned or written
 */
public record RolloutKey(String group, String namespace, String name, Set<String> concerned, Known known,
        EarlierWrite earlier, boolean statusOnly) implements ImageDeployKey {

    /**
     * @param imageDeploy the ImageDeploy as a watch showed it, or null (read it)
     * @param images      Images known by name (an event's build is a fact of the event, never read again)
     * @param allImages   true when an Image absent from {@code images} does not exist (a resync's watch holds all)
     * @param deployment  the managed Deployment as a watch showed it (empty: none), or null (read it)
     */
    public record Known(ImageDeployView imageDeploy, Map<String, KpackImage> images, boolean allImages,
            Optional<DeploymentView> deployment) {

        public static final Known NOTHING = new Known(null, Map.of(), false, null);
    }

    /** A kpack Image reported a build: the ImageDeploy (as its watch showed it) follows that Image. */
    public static RolloutKey imageBuilt(ImageDeployView seen, KpackImage image) {
        return new RolloutKey(seen.group(), seen.namespace(), seen.name(), Set.of(image.name()),
                new Known(seen, Map.of(image.name(), image), false, null), new EarlierWrite(), false);
    }

    /** The ImageDeploy was added or changed: read it, and every Image it references. */
    public static RolloutKey changed(String group, String namespace, String name) {
        return new RolloutKey(group, namespace, name, null, Known.NOTHING, new EarlierWrite(), false);
    }

    /**
     * The ImageDeploy's Deployment reported a change of its rollout: only the status follows it (never a
     * Deployment write, which waits for the event of the build it would roll out).
     */
    public static RolloutKey deploymentChanged(String group, String namespace, String name) {
        return new RolloutKey(group, namespace, name, null, Known.NOTHING, new EarlierWrite(), true);
    }

    /**
     * The ImageDeploy's event, its object as the event or the watch shows it (the newer), with the Images it
     * follows that their watch shows ({@code allImages}: every one; the others are read).
     */
    public static RolloutKey changedAsSeen(ImageDeployView seen, Map<String, KpackImage> images, boolean allImages) {
        return new RolloutKey(seen.group(), seen.namespace(), seen.name(), null,
                new Known(seen, Map.copyOf(images), allImages, null), new EarlierWrite(), false);
    }

    /** A resync found the ImageDeploy, its Images and its managed Deployment (null: none) in its watches. */
    public static RolloutKey resync(ImageDeployView idp, Map<String, KpackImage> images, DeploymentView deployment) {
        return new RolloutKey(idp.group(), idp.namespace(), idp.name(), null,
                new Known(idp, images, true, Optional.ofNullable(deployment)), new EarlierWrite(), false);
    }

    /** A resync found the ImageDeploy and its Deployment in its watches; the objects it follows are read. */
    public static RolloutKey resyncReading(ImageDeployView idp, DeploymentView deployment) {
        return new RolloutKey(idp.group(), idp.namespace(), idp.name(), null,
                new Known(idp, Map.of(), false, Optional.ofNullable(deployment)), new EarlierWrite(), false);
    }

    /** Reading the Deployment again, which the rollout has just written. */
    @Override
    public RolloutKey forStatus() {
        return readingTheDeployment();
    }

    /**
     * The same key for writing, reading the Deployment again: a watch of managed Deployments does not show one
     * that exists without Rekon's label (a conflict the plan reports).
     */
    public RolloutKey readingTheDeployment() {
        return new RolloutKey(group, namespace, name, concerned,
                new Known(known.imageDeploy(), known.images(), known.allImages(), null), earlier, statusOnly);
    }

    /** The Image names the plan considers for this ImageDeploy; every reference when a Deployment is created. */
    Set<String> scope(ImageDeployView idp, boolean creating) {
        Set<String> scope = new LinkedHashSet<>(concerned == null ? List.of() : concerned);
        if (concerned == null || creating) {
            idp.refs().forEach(r -> scope.add(r.imageName()));
        }
        return scope;
    }
}
