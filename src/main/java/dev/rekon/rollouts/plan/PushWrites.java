package dev.rekon.rollouts.plan;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.rekon.cluster.Conditions.Condition;
import dev.rekon.cluster.Conditions;
import dev.rekon.registry.ImageReference;
import dev.rekon.rollouts.plan.PushRolloutPlanner.Follower;
import dev.rekon.rollouts.view.AppliedImage;
import dev.rekon.rollouts.view.DeploymentView;
import dev.rekon.rollouts.view.ImageDeployStatus;
import dev.rekon.rollouts.view.ImageDeployView;

/**
 * What a push plan of {@link PushRolloutPlanner} writes, and how it says so: the patch of only the containers that
 * follow the pushed repository (carrying the resourceVersion it was planned from, the repository kept as the
 * Deployment writes it), and the ImageDeploy status recording their images, null when it already does (a
 * redelivered push writes nothing). It decides nothing itself.
 */
final class PushWrites {

    private PushWrites() {
    }

    static ImagePatch patch(DeploymentView live, Map<Follower, String> changes) {
        return new ImagePatch(live.resourceVersion(), changes.entrySet().stream()
                .map(e -> new ImagePatch.Image(e.getKey().init(), e.getKey().container(), e.getValue())).toList(), null);
    }

    /** The ImageDeploy status with the images recorded and the Progressing condition set; null if unchanged. */
    static ImageDeployStatus status(PushRolloutPlanner.Request r, Map<Follower, String> recorded,
            Condition progressing) {
        ImageDeployView idp = r.imageDeploy();
        ImageDeployStatus current = idp.currentStatus();
        Map<String, AppliedImage> applied = idp.applied();
        recorded.forEach((f, image) -> {
            AppliedImage old = applied.get(f.key());
            if (old == null || !image.equals(old.image())) {
                applied.put(f.key(), new AppliedImage(f.key(), image, null, null, null, r.now()));
            }
        });
        List<AppliedImage> images = List.copyOf(applied.values());
        ImageDeployStatus next = new ImageDeployStatus(null, idp.deploymentName(), images, null, Conditions.set(
                current.conditions(), progressing, idp.generation(), r.now()));
        if (images.equals(current.images()) && !recorded.isEmpty()) {
            return null; // the images are recorded already: a redelivery writes nothing
        }
        return next.sameAs(current) ? null : next;
    }

    static String describe(Map<Follower, String> images) {
        List<String> parts = new ArrayList<>();
        images.forEach((f, image) -> parts.add(f.key() + "=" + image));
        return String.join(", ", parts);
    }

    /** repository:tag@digest as the push names it (the tag alone when the push carried no digest). */
    static String desiredImage(ImageReference pushed) {
        return pushed.registry() + "/" + pushed.repository() + ":" + pushed.tag()
                + (pushed.digest() == null ? "" : "@" + pushed.digest());
    }

    /** Keeps the repository as the Deployment writes it ({@code nginx}, not {@code docker.io/library/nginx}). */
    static String withRepositoryOf(String current, String target) {
        ImageReference t = ImageReference.parse(target);
        String name = current.contains("@") ? current.substring(0, current.indexOf('@')) : current;
        int colon = name.lastIndexOf(':');
        if (colon > name.lastIndexOf('/')) {
            name = name.substring(0, colon);
        }
        return name + ":" + t.tag() + (t.digest() == null ? "" : "@" + t.digest());
    }
}
