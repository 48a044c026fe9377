package dev.rekon.status;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;

import dev.rekon.cluster.Conditions;

import dev.rekon.rollouts.plan.RolloutPlan;
import dev.rekon.rollouts.plan.RolloutPlanner;
import dev.rekon.rollouts.view.AppliedImage;
import dev.rekon.rollouts.view.ImageDeployView;
import dev.rekon.rollouts.view.KpackImage;
import dev.rekon.status.StatusReport.ContainerRow;
import dev.rekon.status.StatusReport.LastOutcome;
import dev.rekon.status.StatusReport.Progress;
import dev.rekon.status.StatusReport.RolloutRow;
import dev.rekon.status.StatusViews.ManagedDeployment;
import dev.rekon.status.StatusViews.WatchedImageDeploy;

/**
 * The rollout rows: for each ImageDeploy, the plan {@link RolloutPlanner} makes now from the watched views (report
 * mode: the same decision an event would make, nothing written) named as a state by {@link RolloutStates}, the
 * InSync condition of the status that plan decides, and each container's images (running, applied, newest Ready
 * build). Problem rows come first.
 */
final class RolloutRows {

    private final RolloutPlanner planner = new RolloutPlanner();
    private final Map<String, ManagedDeployment> deployments = new HashMap<>();
    private final Map<String, KpackImage> images = new HashMap<>();
    private final Map<String, LastOutcome> outcomes;
    private final Instant now;

    RolloutRows(StatusViews views, Map<String, LastOutcome> outcomes, Instant now) {
        views.deployments().forEach(d -> deployments.put(d.namespace() + "/" + d.view().name(), d));
        views.images().forEach(i -> images.put(i.namespace() + "/" + i.name(), i));
        this.outcomes = outcomes;
        this.now = now;
    }

    List<RolloutRow> rows(List<WatchedImageDeploy> imageDeploys) {
        List<RolloutRow> rows = new ArrayList<>();
        imageDeploys.forEach(idp -> rows.add(row(idp)));
        rows.sort(Comparator.comparingInt((RolloutRow r) -> RolloutStates.ORDER.indexOf(r.state())).thenComparing(RolloutRow::namespace)
                .thenComparing(RolloutRow::name));
        return rows;
    }

    private RolloutRow row(WatchedImageDeploy w) {
        ImageDeployView v = w.view();
        ManagedDeployment d = deployments.get(v.namespace() + "/" + v.deploymentName());
        List<ContainerRow> containers = w.refs().stream().map(ref -> container(v, d, ref)).toList();
        Progress progress = d == null ? null : d.progress();
        RolloutPlan plan = planner.plan(new RolloutPlanner.Request(v, KpackImage.named(v.namespace(), w.refs(), images), names(w),
                Optional.ofNullable(d).map(ManagedDeployment::view), now));
        RolloutStates.State state = RolloutStates.of(plan, v.deploymentName(), progress);
        JsonNode status = plan.status() != null ? plan.status() : v.status();
        JsonNode inSync = status == null ? null : Conditions.find(status.path("conditions"), RolloutPlanner.IN_SYNC);
        // The planned status is the one after the plan's write: a build the plan would roll out, or one that
        // waits for spec.suspend, is not in sync yet.
        boolean newer = plan instanceof RolloutPlan.PatchImages || (status != null && status.path("waiting").size() > 0);
        String inSyncStatus = d == null ? "Unknown" : newer ? "False"
                : inSync == null ? "Unknown" : inSync.path("status").asText("Unknown");
        String inSyncReason = !"False".equals(inSyncStatus) ? null : newer ? "NewerBuild" : inSync.path("reason").asText(null);
        return new RolloutRow(v.apiVersion(), v.namespace(), v.name(), v.deploymentName(), state.state(),
                state.problem(), state.reason(), state.message(), inSyncStatus, inSyncReason, w.suspended(), containers,
                progress, outcomes.get(v.namespace() + "/" + v.name()));
    }

    private static Set<String> names(WatchedImageDeploy w) {
        Set<String> names = new LinkedHashSet<>();
        w.refs().forEach(ref -> names.add(ref.imageName()));
        return names;
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

}
