package dev.rekon.rollouts.plan;

import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import dev.rekon.cluster.Conditions.Condition;
import dev.rekon.cluster.Conditions;
import dev.rekon.rollouts.view.AppliedImage;
import dev.rekon.rollouts.view.ImageDeployStatus;
import dev.rekon.rollouts.view.ImageDeployView;
import dev.rekon.rollouts.view.KpackImage;

/**
 * Composes the ImageDeploy status a rollout plan reports, and the record of applied builds: the builds applied
 * per kpack Image, the builds waiting while suspended, and the conditions. A status that says what the current
 * one says is null, so it is not written.
 */
final class RolloutStatus {

    static final String WAITING = "waiting";

    private RolloutStatus() {
    }

    /**
     * The status after rolling out {@code rolled}, with {@code waiting} builds (none when empty) and the
     * conditions given (null ones left as they are); null when it is what the ImageDeploy's status says already.
     */
    static ImageDeployStatus compose(RolloutPlanner.Request r, Map<String, KpackImage> rolled,
            List<AppliedImage> waiting, Condition... conditions) {
        ImageDeployView idp = r.imageDeploy();
        ImageDeployStatus current = idp.currentStatus();
        List<Conditions.Written> set = current.conditions();
        for (Condition c : conditions) {
            if (c != null) {
                set = Conditions.set(set, c, idp.generation(), r.now());
            }
        }
        List<AppliedImage> images = images(memory(r), rolled, r.now());
        ImageDeployStatus next = new ImageDeployStatus(idp.generation(), idp.deploymentName(), images, waiting, set,
                RolloutHistory.next(current.history(), images, set, r.now()));
        return next.sameAs(current) ? null : next;
    }

    /**
     * What was applied, by kpack Image name: the Deployment's annotation, written in the same guarded write
     * as its images, wins over the ImageDeploy status, which is written after it and may be behind (or, for
     * a Deployment patched before the annotation existed, the only record). A status that records a newer
     * build wins back: the Deployment view came from a watch that is behind, and the status must not regress.
     */
    static Map<String, AppliedImage> memory(RolloutPlanner.Request r) {
        Map<String, AppliedImage> merged = new LinkedHashMap<>(r.imageDeploy().applied());
        r.deployment().ifPresent(d -> d.applied().forEach((name, a) -> {
            AppliedImage recorded = merged.get(name);
            if (!a.sameBuild(recorded) && (recorded == null || !recorded.isNewerThan(a))) {
                merged.put(name, new AppliedImage(a.name(), a.image(), a.buildCounter(), a.buildTime(), a.imageUid(),
                        r.now()));
            }
        }));
        return merged;
    }

    static List<AppliedImage> images(Map<String, AppliedImage> applied, Map<String, KpackImage> rolled, Instant now) {
        Map<String, AppliedImage> merged = new LinkedHashMap<>(applied);
        for (KpackImage img : rolled.values()) {
            AppliedImage old = merged.get(img.name());
            boolean same = old != null && img.latestImage().equals(old.image())
                    && Objects.equals(old.buildCounter(), img.buildCounter())
                    && Objects.equals(old.buildTime(), img.buildTime());
            if (!same) {
                merged.put(img.name(), record(img, old == null ? null : old.imageUid(), now));
            }
        }
        return List.copyOf(merged.values());
    }

    /** The builds that wait for {@code spec.suspend} to be lifted, as status entries (no time: nothing was applied). */
    static List<AppliedImage> waiting(Collection<KpackImage> images) {
        return images.stream().map(img -> record(img, null, null)).toList();
    }

    /** The annotation value recording every build applied once this plan is: no times, so the same build gives the same text. */
    static String appliedBuilds(RolloutPlanner.Request r, Map<String, KpackImage> usable) {
        return AppliedImage.annotation(images(memory(r), usable, r.now()));
    }

    private static AppliedImage record(KpackImage img, String previousUid, Instant at) {
        return new AppliedImage(img.name(), img.latestImage(), img.buildCounter(), img.buildTime(),
                img.uid() != null ? img.uid() : previousUid, at);
    }
}
