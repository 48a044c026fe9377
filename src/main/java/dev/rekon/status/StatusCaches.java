package dev.rekon.status;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.rekon.buildpacks.catalog.KpackFacets;
import dev.rekon.buildpacks.view.BuilderView;
import dev.rekon.buildpacks.view.BuildpackView;
import dev.rekon.cluster.watch.FacetViews;
import dev.rekon.cluster.watch.SharedWatches;
import dev.rekon.core.RekonConfig;
import dev.rekon.modules.plan.ModuleDeployment;
import dev.rekon.modules.release.ModuleTemplateView;
import dev.rekon.modules.release.ReleaseMetaView;
import dev.rekon.modules.watch.ModulePushIndex;
import dev.rekon.rollouts.RolloutConfig;
import dev.rekon.rollouts.view.DeploymentView;
import dev.rekon.rollouts.view.KpackImage;
import dev.rekon.rollouts.view.RolloutNames;
import dev.rekon.rollouts.watch.DeploymentCache;
import dev.rekon.rollouts.watch.ImageDeployIndex;
import dev.rekon.rollouts.watch.KpackImageFacet;
import dev.rekon.status.StatusViews.ManagedDeployment;
import dev.rekon.status.StatusViews.WatchedImageDeploy;

/**
 * The status page's only I/O: the facets it reads of the watches the functions keep ({@link SharedWatches}: one
 * per kind, so the page adds no watch of its own), read into one {@link StatusViews}. A report costs zero API
 * calls.
 */
@ApplicationScoped
public class StatusCaches {

    /** How long a request waits for watches still listing before it answers that the page is loading. */
    static final Duration LOADING_WAIT = Duration.ofSeconds(2);

    @Inject
    SharedWatches watches;

    @Inject
    RekonConfig rekon;

    @Inject
    RolloutConfig rollouts;

    @Inject
    DecisionLog decisions;

    @Inject
    ImageDeployIndex imageDeploys;

    @Inject
    DeploymentCache managed;

    @Inject
    ModulePushIndex modules;

    @Inject
    KpackImageFacet images;

    @Inject
    StatusFacets.DeploymentProgress progress;

    @Inject
    StatusFacets.NamespacedBuildpacks buildpacks;

    @Inject
    StatusFacets.ClusterBuildpacks clusterBuildpacks;

    @Inject
    KpackFacets.NamespacedBuilders builders;

    @Inject
    KpackFacets.ClusterBuilders clusterBuilders;

    @Inject
    StatusFacets.ReleaseMetas releaseMetas;

    @Inject
    StatusFacets.Templates templates;

    /** The watches have not listed everything yet: an empty picture now would not be the truth. */
    public static final class Loading extends RuntimeException {
        public Loading(List<String> kinds) {
            super("the status page is loading: still listing " + String.join(", ", kinds) + "; ask again in a moment");
        }
    }

    /**
     * What the watches hold, and this replica's decisions; waits up to {@link #LOADING_WAIT} for watches still
     * starting, then throws {@link Loading} naming them.
     */
    public StatusViews views() {
        Read read = new Read(System.nanoTime() + LOADING_WAIT.toNanos());
        List<WatchedImageDeploy> idps = new ArrayList<>();
        groups().forEach(g -> read.of(imageDeploys.views(g), "ImageDeploys (" + g + ")")
                .forEach(v -> idps.add(WatchedImageDeploy.of(v, v.suspend()))));
        List<ManagedDeployment> deployments = managed(read.of(managed.views(), "managed Deployments"),
                read.of(watches.of(progress), "managed Deployments' progress"));
        List<KpackImage> kpackImages = read.of(watches.of(images), "kpack Images");
        List<BuildpackView> bps = new ArrayList<>(read.of(watches.of(buildpacks), "Buildpacks"));
        List<BuilderView> bs = new ArrayList<>(read.of(watches.of(builders), "Builders"));
        if (rekon.namespacePolicy().allows(null)) {
            bps.addAll(read.of(watches.of(clusterBuildpacks), "ClusterBuildpacks"));
            bs.addAll(read.of(watches.of(clusterBuilders), "ClusterBuilders"));
        }
        List<ModuleDeployment> moduleDeployments = read.of(modules.views(), "module Deployments").stream()
                .map(ModulePushIndex.Running::deployment).toList();
        List<ReleaseMetaView> metas = read.of(watches.of(releaseMetas), "ModuleReleaseMetas");
        List<ModuleTemplateView> moduleTemplates = read.of(watches.of(templates), "ModuleTemplates");
        if (!read.loading.isEmpty()) {
            throw new Loading(read.loading);
        }
        return new StatusViews(idps, deployments, kpackImages, bps, bs, moduleDeployments, metas, moduleTemplates,
                decisions.recent(), read.unavailable);
    }

    private List<String> groups() {
        return rollouts.kpushImageDeploys() ? List.of(RolloutNames.GROUP, RolloutNames.KPUSH_GROUP)
                : List.of(RolloutNames.GROUP);
    }

    /** Each managed Deployment's rollout view beside its progress, both from the one Deployment watch. */
    private static List<ManagedDeployment> managed(List<DeploymentView> views, List<StatusFacets.Progress> progress) {
        Map<String, StatusFacets.Progress> byName = new HashMap<>();
        progress.forEach(p -> byName.put(p.namespace() + "/" + p.name(), p));
        List<ManagedDeployment> out = new ArrayList<>(views.size());
        for (DeploymentView v : views) {
            StatusFacets.Progress p = byName.get(v.namespace() + "/" + v.name());
            if (p != null) {
                out.add(new ManagedDeployment(v.namespace(), v, p.imageDeploy(), p.progress()));
            }
        }
        return out;
    }

    /** One report's reads, sharing one deadline, naming what is loading or missing. */
    private static final class Read {
        final long deadline;
        final List<String> unavailable = new ArrayList<>();
        final List<String> loading = new ArrayList<>();

        Read(long deadline) {
            this.deadline = deadline;
        }

        <V> List<V> of(FacetViews<V> views, String what) {
            return views.report(what, unavailable, loading, deadline);
        }
    }
}
