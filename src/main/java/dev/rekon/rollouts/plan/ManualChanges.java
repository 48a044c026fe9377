package dev.rekon.rollouts.plan;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import dev.rekon.cluster.Conditions.Condition;
import dev.rekon.rollouts.view.AppliedImage;
import dev.rekon.rollouts.view.DeploymentView;
import dev.rekon.rollouts.view.ImageDeployStatus;
import dev.rekon.rollouts.view.ImageDeployView.ContainerRef;
import dev.rekon.rollouts.view.KpackImage;

/**
 * Decides which managed containers were changed by hand: a container written {@code REF=<Image>} that runs
 * another image than the one the Deployment's own record ({@value DeploymentView#APPLIED_BUILDS}, written in the
 * same guarded write as the images, so the two always agree after Rekon's writes) says Rekon applied, while the
 * Image offers no newer build. Such a change is reported, never fought: only a newer build moves the container
 * again. Record and images come from one version of the Deployment, so a watch that lags cannot fake a change.
 */
public final class ManualChanges {

    static final String IN_SYNC = "InSync";
    public static final String REASON = "ManualChange";

    private ManualChanges() {
    }

    /** A container that runs {@code running} instead of the {@code applied} build. */
    record Drift(ContainerRef ref, String running, AppliedImage applied) {

        String describe() {
            return (ref.init() ? "initContainer " : "container ") + ref.container() + " runs " + running
                    + ", not " + applied.image() + " (" + AppliedImage.describe(applied.buildCounter(), applied.buildTime())
                    + " of kpack Image " + ref.imageName() + ") that Rekon applied";
        }
    }

    /**
     * Whether {@code candidate} is a newer build than the one recorded, so that rolling it out is Rekon's to do
     * even over a manual change. A candidate of a recreated Image (another uid) is newer.
     */
    static boolean newer(KpackImage candidate, AppliedImage recorded) {
        if (candidate == null || !candidate.rollable()) {
            return false;
        }
        return !recorded.isNewerThan(candidate) && !sameBuild(candidate, recorded);
    }

    private static boolean sameBuild(KpackImage candidate, AppliedImage recorded) {
        boolean sameImage = candidate.uid() == null || recorded.imageUid() == null
                || candidate.uid().equals(recorded.imageUid());
        return sameImage && Objects.equals(candidate.buildCounter(), recorded.buildCounter())
                && Objects.equals(candidate.buildTime(), recorded.buildTime());
    }

    /**
     * The manual changes in {@code live}: every referenced container that has a record, is not about to roll
     * forward (its Image's known build is not newer), and runs another image than the recorded one.
     */
    static List<Drift> find(List<ContainerRef> refs, Map<String, KpackImage> images, Set<ContainerRef> rolling,
            DeploymentView live) {
        List<Drift> out = new ArrayList<>();
        for (ContainerRef ref : refs) {
            AppliedImage recorded = live.applied().get(ref.imageName());
            if (recorded == null || recorded.image() == null || rolling.contains(ref)
                    || newer(images.get(ref.imageName()), recorded)) {
                continue;
            }
            String running = live.imageOf(ref.init(), ref.container());
            if (running != null && !running.equals(recorded.image())) {
                out.add(new Drift(ref, running, recorded));
            }
        }
        return out;
    }

    /** The InSync condition: True when every managed container runs what Rekon applied, else what differs. */
    static Condition condition(List<Drift> drifts, String deployment) {
        if (drifts.isEmpty()) {
            return Condition.isTrue(IN_SYNC, "AsApplied",
                    "every managed container of Deployment " + deployment + " runs the image Rekon applied");
        }
        return Condition.isFalse(IN_SYNC, REASON, message(drifts, deployment));
    }

    /**
     * The manual change a status write newly reports (InSync turning False, or naming another change), for a
     * Warning Event; null when the status tells of none, or of the same one as before, so a resync that finds
     * the same change again records nothing.
     */
    public static String newlyReported(ImageDeployStatus current, ImageDeployStatus next) {
        var now = next == null ? null : next.condition(IN_SYNC);
        if (now == null || !"False".equals(now.status())) {
            return null;
        }
        var before = current.condition(IN_SYNC);
        boolean same = before != null && "False".equals(before.status())
                && Objects.equals(before.message(), now.message());
        return same ? null : now.message();
    }

    static String message(List<Drift> drifts, String deployment) {
        return "Deployment " + deployment + " was changed by hand: "
                + String.join("; ", drifts.stream().map(Drift::describe).toList())
                + "; Rekon leaves it so until a newer build is reported";
    }
}
