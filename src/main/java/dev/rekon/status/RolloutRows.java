package dev.rekon.status;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.rekon.rollouts.AppliedImage;
import dev.rekon.rollouts.ImageDeployView;
import dev.rekon.rollouts.KpackImage;
import dev.rekon.status.StatusReport.ContainerRow;
import dev.rekon.status.StatusReport.LastOutcome;
import dev.rekon.status.StatusReport.Progress;
import dev.rekon.status.StatusReport.RolloutRow;
import dev.rekon.status.StatusViews.ManagedDeployment;
import dev.rekon.status.StatusViews.WatchedImageDeploy;

/**
 * Decides the state of each ImageDeploy from the views alone: a managed container runs another image than the
 * build Rekon recorded in the Deployment's {@code rekon.dev/applied-builds} and no newer build exists
 * ({@code Drifted}, InSync False / {@code ManualChange}); its kpack Image has a newer Ready build than the one
 * applied ({@code Lagging}); {@code spec.suspend} is true ({@code Suspended}); the Deployment is still rolling
 * out or stuck, as its own status says. Problem rows come first.
 */
final class RolloutRows {

    static final List<String> ORDER = List.of("Failing", "Drifted", "Lagging", "Suspended", "RollingOut", "Waiting",
            "Healthy");

    private final Map<String, ManagedDeployment> deployments = new HashMap<>();
    private final Map<String, KpackImage> images = new HashMap<>();
    private final Map<String, LastOutcome> outcomes;

    RolloutRows(StatusViews views, Map<String, LastOutcome> outcomes) {
        views.deployments().forEach(d -> deployments.put(d.namespace() + "/" + d.view().name(), d));
        views.images().forEach(i -> images.put(i.namespace() + "/" + i.name(), i));
        this.outcomes = outcomes;
    }

    List<RolloutRow> rows(List<WatchedImageDeploy> imageDeploys) {
        List<RolloutRow> rows = new ArrayList<>();
        imageDeploys.forEach(idp -> rows.add(row(idp)));
        rows.sort(Comparator.comparingInt((RolloutRow r) -> ORDER.indexOf(r.state())).thenComparing(RolloutRow::namespace)
                .thenComparing(RolloutRow::name));
        return rows;
    }

    private RolloutRow row(WatchedImageDeploy w) {
        ImageDeployView v = w.view();
        ManagedDeployment d = deployments.get(v.namespace() + "/" + v.deploymentName());
        List<ContainerRow> containers = w.refs().stream().map(ref -> container(v, d, ref)).toList();
        Progress progress = d == null ? null : d.progress();
        String[] decided = decide(v, w.specProblem(), w.suspended(), d, containers);
        String inSync = d == null || containers.isEmpty() ? "Unknown" : has(containers, "ManualChange") ? "False"
                : has(containers, "Lagging") ? "False" : has(containers, "InSync") ? "True" : "Unknown";
        String inSyncReason = has(containers, "ManualChange") ? "ManualChange" : "False".equals(inSync) ? "NewerBuild" : null;
        String state = decided[0];
        boolean problem = ORDER.indexOf(state) < ORDER.indexOf("Suspended");
        return new RolloutRow(v.apiVersion(), v.namespace(), v.name(), v.deploymentName(), state, problem, decided[1],
                decided[2], inSync, inSyncReason, w.suspended(), containers, progress,
                outcomes.get(v.namespace() + "/" + v.name()));
    }

    /** State, reason and message, the first that holds in the order of {@link #ORDER}'s urgency. */
    private static String[] decide(ImageDeployView v, String specProblem, boolean suspended, ManagedDeployment d,
            List<ContainerRow> cs) {
        if (specProblem != null) {
            return new String[] { "Failing", "InvalidSpec", specProblem };
        }
        if (suspended) {
            return new String[] { "Suspended", "Suspended", "spec.suspend is true: Rekon applies no build to Deployment "
                    + v.deploymentName() + " until it is set to false" };
        }
        for (ContainerRow c : cs) {
            if ("ImageNotFound".equals(c.state())) {
                return new String[] { "Failing", "ImageNotFound", "container " + c.container() + " names kpack Image "
                        + c.image() + ", which does not exist in namespace " + v.namespace() };
            }
        }
        if (d == null) {
            return cs.stream().anyMatch(c -> c.newestImage() != null)
                    ? new String[] { "Lagging", "DeploymentMissing", "Deployment " + v.deploymentName()
                            + " does not exist yet; the next event of its Image creates it" }
                    : new String[] { "Waiting", "ImageNotReady", "no Image it names has a Ready build yet" };
        }
        for (ContainerRow c : cs) {
            if ("ManualChange".equals(c.state())) {
                return new String[] { "Drifted", "ManualChange", "container " + c.container() + " runs " + c.running()
                        + " but Rekon applied " + c.appliedImage() + " (" + AppliedImage.describe(c.appliedBuild(), null)
                        + " of Image " + c.image() + ") and no newer build exists: changed by hand" };
            }
        }
        for (ContainerRow c : cs) {
            if ("Lagging".equals(c.state())) {
                return new String[] { "Lagging", "NewerBuild", "Image " + c.image() + " has "
                        + AppliedImage.describe(c.newestBuild(), null) + " (" + c.newestImage() + ") Ready; container "
                        + c.container() + " runs " + (c.appliedImage() == null ? c.running()
                                : AppliedImage.describe(c.appliedBuild(), null)) };
            }
        }
        for (ContainerRow c : cs) {
            if ("ImageNotReady".equals(c.state())) {
                return new String[] { "Waiting", "ImageNotReady", "Image " + c.image() + " has no Ready build yet" };
            }
        }
        return progress(d.progress());
    }

    private static String[] progress(Progress p) {
        if ("False".equals(p.progressing())) {
            return new String[] { "Failing", p.progressingReason() == null ? "NotProgressing" : p.progressingReason(),
                    "the Deployment reports Progressing False" };
        }
        if (!p.observed()) {
            return new String[] { "RollingOut", "NotObservedYet", "no Deployment controller has reported on it yet" };
        }
        if (p.updated() < p.desired() || p.ready() < p.desired()) {
            return new String[] { "RollingOut", "RollingOut", p.updated() + " of " + p.desired() + " replicas updated, "
                    + p.ready() + " ready" };
        }
        return new String[] { "Healthy", "InSync", "runs the newest Ready build of every Image it names" };
    }

    private ContainerRow container(ImageDeployView v, ManagedDeployment d, ImageDeployView.ContainerRef ref) {
        KpackImage img = images.get(v.namespace() + "/" + ref.imageName());
        String running = d == null ? null : d.view().imageOf(ref.init(), ref.container());
        AppliedImage applied = d == null ? null : d.view().applied().get(ref.imageName());
        if (applied == null) {
            applied = v.applied().get(ref.imageName());
        }
        boolean rollable = img != null && img.rollable();
        String state = img == null ? "ImageNotFound" : d == null ? "NoDeployment"
                : rollable && (applied == null || lags(applied, img)) ? "Lagging"
                        : applied != null && running != null && !running.equals(applied.image()) ? "ManualChange"
                                : !rollable && applied == null ? "ImageNotReady" : "InSync";
        return new ContainerRow(ref.container(), ref.imageName(), running, applied == null ? null : applied.image(),
                applied == null ? null : applied.buildCounter(), rollable ? img.latestImage() : null,
                rollable ? img.buildCounter() : null, state);
    }

    /** The Image's newest build is another image than the one applied, and not an older build. */
    private static boolean lags(AppliedImage applied, KpackImage newest) {
        return !newest.latestImage().equals(applied.image()) && !applied.isNewerThan(newest);
    }

    private static boolean has(List<ContainerRow> cs, String state) {
        return cs.stream().anyMatch(c -> state.equals(c.state()));
    }
}
