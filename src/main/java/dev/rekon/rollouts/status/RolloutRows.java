package dev.rekon.rollouts.status;

import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.rekon.cluster.Conditions;
import dev.rekon.rollouts.plan.RolloutPlan;
import dev.rekon.rollouts.plan.RolloutPlanner;
import dev.rekon.rollouts.status.RolloutSection.ContainerRow;
import dev.rekon.rollouts.status.RolloutSection.Progress;
import dev.rekon.rollouts.status.RolloutSection.RolloutRow;
import dev.rekon.rollouts.view.AppliedImage;
import dev.rekon.rollouts.view.DeploymentView;
import dev.rekon.rollouts.view.ImageDeployStatus;
import dev.rekon.rollouts.view.ImageDeployView;
import dev.rekon.rollouts.view.KpackImage;

/**
 * Renders one ImageDeploy's plan, as the one loop makes it in report mode, as its row: the state
 * {@link RolloutStates} names for the plan, the InSync condition of the status the plan decides, and each
 * container's images (running, applied, newest Ready build). A container is Lagging exactly when the plan patches
 * it (or, while suspended, holds a build for it): the row decides nothing the plan did not. Problem rows first.
 */
public final class RolloutRows {

    /** Problem rows first, then by namespace and name. */
    public static final Comparator<RolloutRow> ORDER = Comparator
            .comparingInt((RolloutRow r) -> RolloutStates.ORDER.indexOf(r.state())).thenComparing(RolloutRow::namespace)
            .thenComparing(RolloutRow::name);

    private RolloutRows() {
    }

    /**
     * @param d        the managed Deployment the plan was made from, or null
     * @param progress its rollout progress, or null
     * @param images   the kpack Images the ImageDeploy names, by name
     */
    public static RolloutRow row(ImageDeployView v, RolloutPlan plan, DeploymentView d, Progress progress,
            Map<String, KpackImage> images) {
        ImageDeployStatus planned = plan.status();
        // A planned field that is null is left as the ImageDeploy has it: that one is read from the status.
        List<AppliedImage> waiting = planned != null && planned.waiting() != null ? planned.waiting() : v.waiting();
        Set<String> lagging = lagging(plan, waiting);
        List<ContainerRow> containers = v.refs().stream().map(ref -> container(v, d, ref, images, lagging)).toList();
        RolloutStates.State state = RolloutStates.of(plan, v.deploymentName(), d == null ? null : progress);
        Conditions.Written inSync = planned != null && planned.conditions() != null
                ? planned.condition(RolloutPlanner.IN_SYNC) : v.condition(RolloutPlanner.IN_SYNC);
        // The planned status is the one after the plan's write: a build the plan would roll out, or one that
        // waits for spec.suspend, is not in sync yet.
        boolean newer = plan instanceof RolloutPlan.PatchImages || !waiting.isEmpty();
        String inSyncStatus = d == null ? "Unknown" : newer ? "False"
                : inSync == null || inSync.status() == null ? "Unknown" : inSync.status();
        String inSyncReason = !"False".equals(inSyncStatus) ? null : newer ? "NewerBuild" : inSync.reason();
        return new RolloutRow(v.apiVersion(), v.namespace(), v.name(), v.deploymentName(), state.state(),
                state.problem(), state.reason(), state.message(), inSyncStatus, inSyncReason, v.suspend(), containers,
                d == null ? null : progress, null);
    }

    /**
     * What the plan moves: the containers its patch sets ({@code init/name} and {@code name}), and the kpack Images
     * whose builds the status holds while suspended.
     */
    private static Set<String> lagging(RolloutPlan plan, List<AppliedImage> waiting) {
        Set<String> out = new HashSet<>();
        if (plan instanceof RolloutPlan.PatchImages p) {
            p.patch().images().forEach(i -> out.add((i.init() ? "init:" : "container:") + i.container()));
        }
        waiting.forEach(w -> out.add("image:" + (w.name() == null ? "" : w.name())));
        return out;
    }

    private static ContainerRow container(ImageDeployView v, DeploymentView d, ImageDeployView.ContainerRef ref,
            Map<String, KpackImage> images, Set<String> lagging) {
        KpackImage img = images.get(ref.imageName());
        String running = d == null ? null : d.imageOf(ref.init(), ref.container());
        AppliedImage applied = d == null ? null : d.applied().get(ref.imageName());
        if (applied == null) {
            applied = v.applied().get(ref.imageName());
        }
        boolean rollable = img != null && img.rollable();
        boolean moves = lagging.contains((ref.init() ? "init:" : "container:") + ref.container())
                || lagging.contains("image:" + ref.imageName());
        String state = img == null ? "ImageNotFound" : d == null ? "NoDeployment"
                : moves ? "Lagging"
                        : applied != null && running != null && !running.equals(applied.image()) ? "ManualChange"
                                : !rollable && applied == null ? "ImageNotReady" : "InSync";
        return new ContainerRow(ref.container(), ref.imageName(), running, applied == null ? null : applied.image(),
                applied == null ? null : applied.buildCounter(), rollable ? img.latestImage() : null,
                rollable ? img.buildCounter() : null, state);
    }
}
