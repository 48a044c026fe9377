package dev.rekon.rollouts.plan;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.rekon.rollouts.view.AppliedImage;
import dev.rekon.rollouts.view.DeploymentView;
import dev.rekon.rollouts.view.ImageDeployView.ContainerRef;
import dev.rekon.rollouts.view.ImageDeployView;
import dev.rekon.rollouts.view.KpackImage;

/**
 * What {@link RolloutPlanner} writes to a Deployment, and how it says so: the Deployment it creates (its
 * {@code REF=} containers' images, the applied builds recorded), or the patch of only the containers whose
 * image changes, carrying the resourceVersion it was planned from.
 */
final class DeploymentWrites {

    /** One container whose image the plan sets. */
    record Target(ContainerRef ref, String image) {
    }

    private DeploymentWrites() {
    }

    static NewDeployment create(ImageDeployView idp, Map<String, KpackImage> usable, String appliedBuilds) {
        return new NewDeployment(idp, idp.refs().stream().map(ref -> new ImagePatch.Image(ref.init(), ref.container(),
                usable.get(ref.imageName()).latestImage())).toList(), appliedBuilds);
    }

    static ImagePatch patch(DeploymentView live, List<Target> changes, String appliedBuilds) {
        return new ImagePatch(live.resourceVersion(), changes.stream()
                .map(t -> new ImagePatch.Image(t.ref().init(), t.ref().container(), t.image())).toList(), appliedBuilds);
    }

    static String describe(List<ContainerRef> refs, Map<String, KpackImage> usable) {
        if (refs.isEmpty()) {
            return "its images as written (no REF= images)";
        }
        List<String> parts = new ArrayList<>();
        for (ContainerRef ref : refs) {
            KpackImage img = usable.get(ref.imageName());
            parts.add((ref.init() ? "initContainer " : "container ") + ref.container() + "=" + img.latestImage());
        }
        return String.join(", ", parts);
    }

    static String describeChanges(List<Target> changes, Map<String, KpackImage> usable) {
        List<String> parts = new ArrayList<>();
        for (Target t : changes) {
            KpackImage img = usable.get(t.ref().imageName());
            parts.add((t.ref().init() ? "initContainer " : "container ") + t.ref().container() + " to " + t.image()
                    + " (" + AppliedImage.describe(img.buildCounter(), img.buildTime()) + " of kpack Image "
                    + img.name() + ")");
        }
        return String.join(", ", parts);
    }
}
