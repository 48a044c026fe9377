package dev.rekon.rollouts;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.rekon.cluster.watch.SharedWatches;
import dev.rekon.pipeline.ReconcileLoop;
import dev.rekon.rollouts.apply.RolloutGateway;
import dev.rekon.rollouts.plan.PrunePlanner;
import dev.rekon.rollouts.status.ImageRows;
import dev.rekon.rollouts.status.RolloutRows;
import dev.rekon.rollouts.status.RolloutSection;
import dev.rekon.rollouts.status.RolloutSection.PruneRow;
import dev.rekon.rollouts.status.RolloutSection.RolloutRow;
import dev.rekon.rollouts.view.DeploymentView;
import dev.rekon.rollouts.view.ImageDeployView;
import dev.rekon.rollouts.view.KpackImage;
import dev.rekon.rollouts.view.RolloutNames;
import dev.rekon.rollouts.watch.DeploymentCache;
import dev.rekon.rollouts.watch.DeploymentProgressFacet;
import dev.rekon.rollouts.watch.ImageDeployIndex;
import dev.rekon.rollouts.watch.KpackImageFacet;
import dev.rekon.rollouts.watch.PromotedImageFacet;
import dev.rekon.status.AreaReport;
import dev.rekon.status.StatusRead;
import dev.rekon.status.StatusReport;

/**
 * The rollouts rows of the status page: the keys a resync pass would make ({@link RolloutKeys}, from the watch
 * caches), each planned by the one loop in report mode, rendered, with no API call: whether the name of a
 * Deployment a plan would create is taken by one Rekon does not manage comes from the same Deployment watch (a read
 * only while it has not synced). A rollout row is its ImageDeploy's {@link RolloutReconciler} plan; a prune row is a managed Deployment whose {@link PruneReconciler} plan deletes
 * it, so the page says exactly what the next pass deletes.
 */
@ApplicationScoped
public class RolloutReport implements AreaReport {

    @Inject
    SharedWatches watches;

    @Inject
    RolloutConfig config;

    @Inject
    RolloutGateway gateway;

    @Inject
    ImageDeployIndex imageDeploys;

    @Inject
    DeploymentCache managed;

    @Inject
    KpackImageFacet images;

    @Inject
    PromotedImageFacet promotedImages;

    @Inject
    DeploymentProgressFacet progress;

    @Inject
    ReconcileLoop loop;

    @Inject
    RolloutReconciler rollouts;

    @Inject
    PruneReconciler pruner;

    @Override
    public String area() {
        return RolloutResync.AREA;
    }

    /**
     * What the rows are made from, as the watch caches hold it.
     *
     * @param progress each managed Deployment's rollout progress, by {@code namespace/name}
     * @param groups   the ImageDeploy groups served (owners of another group are kept)
     */
    public record Watched(List<ImageDeployView> imageDeploys, List<DeploymentView> deployments,
            Map<String, RolloutSection.Progress> progress, List<KpackImage> images, Set<String> groups,
            List<KpackImage> promotedImages) {
    
        /** Views where no ImageDeploy follows a PromotedImage. */
        public Watched(List<ImageDeployView> imageDeploys, List<DeploymentView> deployments,
                Map<String, RolloutSection.Progress> progress, List<KpackImage> images, Set<String> groups) {
            this(imageDeploys, deployments, progress, images, groups, List.of());
        }
    }

    /**
     * A report over the given loop and clock, outside CDI: its plans read nothing but the watched views, so a
     * Deployment the managed watch does not hold is taken to be absent.
     */
    public static RolloutReport over(ReconcileLoop loop, Clock clock) {
        RolloutReport r = over(loop, clock, null);
        r.rollouts.byName = (namespace, name) -> Optional.empty();
        return r;
    }

    /** A report over the given loop and clock, outside CDI, reading a would-be created Deployment's name there. */
    public static RolloutReport over(ReconcileLoop loop, Clock clock, RolloutGateway gateway) {
        RolloutReport r = new RolloutReport();
        r.loop = loop;
        r.rollouts = new RolloutReconciler();
        r.rollouts.clock = clock;
        r.rollouts.gateway = gateway;
        r.pruner = new PruneReconciler();
        return r;
    }

    @Override
    public StatusReport addTo(StatusReport report, StatusRead read, String namespace, Instant now) {
        List<ImageDeployView> idps = new ArrayList<>();
        for (String g : config.kpushImageDeploys() ? List.of(RolloutNames.GROUP, RolloutNames.KPUSH_GROUP)
                : List.of(RolloutNames.GROUP)) {
            idps.addAll(read.of(imageDeploys.views(g), "ImageDeploys (" + g + ")"));
        }
        List<DeploymentView> deployments = read.of(managed.views(), "managed Deployments");
        Map<String, RolloutSection.Progress> progressByName = new HashMap<>();
        read.of(watches.of(progress), "managed Deployments' progress")
                .forEach(p -> progressByName.put(p.namespace() + "/" + p.name(), p.progress()));
        List<KpackImage> kpackImages = read.of(watches.of(images), "kpack Images");
        // Only a cluster where an ImageDeploy follows a PromotedImage watches them: others read nothing more.
        List<KpackImage> promoted = idps.stream().anyMatch(ImageDeployView::followsPromotedImages)
                ? read.of(watches.of(promotedImages), "PromotedImages") : List.of();
        return addTo(report, new Watched(idps, deployments, progressByName, kpackImages,
                Set.copyOf(gateway.imageDeployGroups()), promoted), namespace);
    }

    /** The report with the rows of the plans the loop makes, in report mode, for the keys of these views. */
    public StatusReport addTo(StatusReport report, Watched w, String namespace) {
        RolloutKeys.Found found = RolloutKeys.keys(w.imageDeploys(), w.images(), w.deployments(), w.groups(),
                namespace, true, Optional.of(w.promotedImages()));
        List<RolloutRow> rows = new ArrayList<>(found.rollouts().size());
        List<ImageDeployView> shown = new ArrayList<>(found.rollouts().size());
        for (RolloutKey key : found.rollouts()) {
            loop.plan(rollouts, key).ifPresent(step -> {
                ImageDeployView v = key.known().imageDeploy();
                DeploymentView d = key.known().deployment().orElse(null);
                shown.add(v);
                rows.add(RolloutRows.row(v, step.plan(), d, d == null ? null
                        : w.progress().get(d.namespace() + "/" + d.name()), key.known().images()));
            });
        }
        rows.sort(RolloutRows.ORDER);
        List<PruneRow> prunes = new ArrayList<>();
        for (PruneKey key : found.prunes()) {
            loop.plan(pruner, key).filter(PrunePlanner.Plan::writes).ifPresent(p -> prunes.add(new PruneRow(
                    p.delete().namespace(), p.delete().name(), p.imageDeploy(), p.why(), p.reply().message())));
        }
        prunes.sort(Comparator.comparing(PruneRow::namespace).thenComparing(PruneRow::deployment));
        return report.withSection(new RolloutSection(rows, ImageRows.rows(shown, w.images()), prunes));
    }
}
