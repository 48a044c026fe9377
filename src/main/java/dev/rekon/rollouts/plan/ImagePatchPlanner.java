package dev.rekon.rollouts.plan;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.rekon.cluster.Conditions.Condition;
import dev.rekon.rollouts.plan.DeploymentWrites.Target;
import dev.rekon.rollouts.view.AppliedImage;
import dev.rekon.rollouts.view.DeploymentView;
import dev.rekon.rollouts.view.ImageDeployStatus;
import dev.rekon.rollouts.view.ImageDeployView.ContainerRef;
import dev.rekon.rollouts.view.ImageDeployView;
import dev.rekon.rollouts.view.KpackImage;

/**
 * Decides how an existing Deployment follows its kpack Images: patch only the containers whose Image offers a
 * newer build than the one Rekon applied (a container changed by hand stays, and is reported), hold the patch
 * while suspended, or say why nothing changes. Pure.
 */
final class ImagePatchPlanner {

    private ImagePatchPlanner() {
    }

    /** The containers the plan moves, and those that were not found in the Deployment. */
    private record Changes(List<Target> targets, List<String> absent) {
    }

    static RolloutPlan plan(RolloutPlanner.Request r, Candidates c, DeploymentView live) {
        ImageDeployView idp = r.imageDeploy();
        Changes changes = changes(idp.refs(), c.usable(), live);
        Set<ContainerRef> rolling = new LinkedHashSet<>(changes.targets().stream().map(Target::ref).toList());
        List<ManualChanges.Drift> drifts = ManualChanges.find(idp.refs(), r.images(), rolling, live);
        Condition inSync = ManualChanges.condition(drifts, live.name());
        Condition readiness = !c.notReady().isEmpty()
                ? Condition.isFalse(RolloutPlanner.READY, "ImageNotReady", "kpack Image "
                        + RolloutWording.names(c.notReady()) + " is not ready; Deployment " + live.name()
                        + " keeps its current image" + RolloutWording.notReadyDetail(r, c.notReady(), c.notReady(), Set.of()))
                : RolloutWording.ready(idp);
        if (changes.targets().isEmpty()) {
            ImageDeployStatus status = RolloutWording.status(r, c.usable(), readiness, null, inSync);
            return unchanged(r, live, c, changes.absent(), drifts, status);
        }
        if (idp.suspend()) {
            Map<String, KpackImage> waiting = new LinkedHashMap<>();
            changes.targets().forEach(t -> waiting.put(t.ref().imageName(), c.usable().get(t.ref().imageName())));
            return RolloutWording.hold(r, waiting.values(), inSync);
        }
        String message = "set " + DeploymentWrites.describeChanges(changes.targets(), c.usable()) + " in Deployment "
                + live.name();
        return new RolloutPlan.PatchImages(DeploymentWrites.patch(live, changes.targets(),
                RolloutStatus.appliedBuilds(r, c.usable())), "ImageUpdated", message, RolloutWording.writing(r, c.usable(),
                        readiness, Condition.isTrue(RolloutPlanner.PROGRESSING, "ImageUpdated", message), inSync));
    }

    private static Changes changes(List<ContainerRef> refs, Map<String, KpackImage> usable, DeploymentView live) {
        List<Target> targets = new ArrayList<>();
        List<String> absent = new ArrayList<>();
        for (ContainerRef ref : refs) {
            KpackImage image = usable.get(ref.imageName());
            AppliedImage recorded = live.applied().get(ref.imageName());
            if (image == null || recorded != null && !ManualChanges.newer(image, recorded)) {
                // Rekon's write of this build stands; a container that differs was changed by hand (reported).
                continue;
            }
            String current = live.imageOf(ref.init(), ref.container());
            if (current == null && !(ref.init() ? live.initContainers() : live.containers()).containsKey(ref.container())) {
                absent.add(ref.container());
            } else if (!image.latestImage().equals(current)) {
                targets.add(new Target(ref, image.latestImage()));
            }
        }
        return new Changes(targets, absent);
    }

    /** Why the Deployment stays as it is: an older build, a manual change, an Image not ready, or up to date. */
    private static RolloutPlan unchanged(RolloutPlanner.Request r, DeploymentView live, Candidates c,
            List<String> absent, List<ManualChanges.Drift> drifts, ImageDeployStatus status) {
        if (!c.older().isEmpty()) {
            String name = c.older().iterator().next();
            KpackImage img = r.images().get(name);
            AppliedImage a = RolloutStatus.memory(r).get(name);
            return new RolloutPlan.NoChange("OlderBuild", AppliedImage.describe(img.buildCounter(), img.buildTime())
                    + " of kpack Image " + name + " is older than " + AppliedImage.describe(a.buildCounter(),
                            a.buildTime()) + " already applied to Deployment " + live.name() + "; nothing changed", status);
        }
        if (!drifts.isEmpty()) {
            return new RolloutPlan.NoChange(ManualChanges.REASON, ManualChanges.message(drifts, live.name()), status);
        }
        if (!c.notReady().isEmpty() && c.usable().isEmpty()) {
            return new RolloutPlan.NoChange("ImageNotReady", "kpack Image " + RolloutWording.names(c.notReady())
                    + " is not ready; Deployment " + live.name() + " keeps its current image", status);
        }
        if (!absent.isEmpty()) {
            return new RolloutPlan.NoChange("ContainerNotFound", "Deployment " + live.name() + " has no container "
                    + String.join(", ", absent) + "; its image was left alone", status);
        }
        return new RolloutPlan.NoChange(RolloutPlanner.UP_TO_DATE, "Deployment " + live.name() + " already runs "
                + String.join(", ", c.usable().values().stream().map(KpackImage::latestImage).toList()), status);
    }
}
