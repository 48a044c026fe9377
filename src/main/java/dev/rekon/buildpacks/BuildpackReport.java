package dev.rekon.buildpacks;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.rekon.buildpacks.catalog.BuildpackCatalog;
import dev.rekon.buildpacks.catalog.BuildpackViewFacets;
import dev.rekon.buildpacks.catalog.Buildpackages;
import dev.rekon.buildpacks.catalog.KpackFacets;
import dev.rekon.buildpacks.status.BuildRows;
import dev.rekon.buildpacks.status.BuildSection;
import dev.rekon.buildpacks.status.BuildSection.BuilderRow;
import dev.rekon.buildpacks.status.BuildSection.BuildpackRow;
import dev.rekon.buildpacks.view.BuilderView;
import dev.rekon.buildpacks.view.BuildpackSource;
import dev.rekon.buildpacks.view.BuildpackView;
import dev.rekon.cluster.watch.SharedWatches;
import dev.rekon.core.RekonConfig;
import dev.rekon.pipeline.ReconcileLoop;
import dev.rekon.status.AreaReport;
import dev.rekon.status.StatusRead;
import dev.rekon.status.StatusReport;

/**
 * The buildpacks rows of the status page: every Buildpack, ClusterBuildpack, Builder and ClusterBuilder the watch
 * caches hold in the namespace asked for (cluster-scoped ones only when every namespace is allowed), planned now by
 * the one loop in report mode with the area's own planners ({@link BuildPage}): each Buildpack from the
 * buildpackage this process last read for its image ({@link Buildpackages}), then each Builder against the
 * buildpacks as those plans leave them ({@link PlannedStatuses}, as a report-mode resync resolves it). No API call
 * and no registry request; an image never read is named in its row.
 */
@ApplicationScoped
public class BuildpackReport implements AreaReport {

    @Inject
    SharedWatches watches;

    @Inject
    RekonConfig rekon;

    @Inject
    BuildpackViewFacets.NamespacedBuildpacks buildpacks;

    @Inject
    BuildpackViewFacets.ClusterBuildpacks clusterBuildpacks;

    @Inject
    KpackFacets.NamespacedBuilders builders;

    @Inject
    KpackFacets.ClusterBuilders clusterBuilders;

    @Inject
    ReconcileLoop loop;

    @Inject
    BuildpackCatalog catalog;

    @Inject
    Buildpackages held;

    @Inject
    BuildpackReconciler buildpackReconciler;

    @Inject
    BuilderReconciler builderReconciler;

    /** A report over a service's loop, catalog and reconcilers, outside CDI (tables over in-memory gateways). */
    static BuildpackReport over(BuildpackService service) {
        BuildpackReport r = new BuildpackReport();
        r.loop = service.loop;
        r.catalog = service.catalog;
        r.buildpackReconciler = service.reconciler;
        r.builderReconciler = service.resolutions.reconciler;
        r.held = service.reconciler.held;
        return r;
    }

    @Override
    public String area() {
        return BuildpackResync.AREA;
    }

    @Override
    public StatusReport addTo(StatusReport report, StatusRead read, String namespace, Instant now) {
        List<BuildpackView> bps = new ArrayList<>(read.of(watches.of(buildpacks), "Buildpacks"));
        List<BuilderView> bs = new ArrayList<>(read.of(watches.of(builders), "Builders"));
        if (rekon.namespacePolicy().allows(null)) {
            bps.addAll(read.of(watches.of(clusterBuildpacks), "ClusterBuildpacks"));
            bs.addAll(read.of(watches.of(clusterBuilders), "ClusterBuilders"));
        }
        return planned(report, bps, bs, namespace, now);
    }

    /**
     * The report with the rows of these watched objects in {@code namespace} (null: all of them), planned at
     * {@code now}. Every Buildpack given is planned, those of other namespaces too: a Builder resolves against the
     * ClusterBuildpacks as planned.
     */
    StatusReport planned(StatusReport report, List<BuildpackView> bps, List<BuilderView> bs, String namespace,
            Instant now) {
        var bpPage = new BuildPage.Buildpacks(buildpackReconciler, held);
        var bPage = new BuildPage.Builders(builderReconciler, held);
        PlannedStatuses statuses = new PlannedStatuses(catalog);
        List<BuildpackRow> bpRows = new ArrayList<>();
        for (BuildpackView v : bps) {
            loop.plan(bpPage, new BuildPage.BuildpackKey(v, now)).ifPresent(p -> {
                if (p.plan() != null) {
                    statuses.planned(p.plan());
                }
                if (in(namespace, v.namespace())) {
                    bpRows.add(p.plan() != null ? BuildRows.buildpack(p.plan().after())
                            : BuildRows.notRead(v, p.notRead()));
                }
            });
        }
        Map<String, List<BuildpackSource>> sources = statuses.sources();
        List<BuilderRow> bRows = new ArrayList<>();
        for (BuilderView b : bs) {
            if (in(namespace, b.namespace())) {
                loop.plan(bPage, new BuildPage.BuilderKey(b, sources, now)).ifPresent(p -> bRows.add(
                        p.plan() != null ? BuildRows.builder(BuilderReconciler.after(b, p.plan()))
                                : BuildRows.notRead(b, p.notRead())));
            }
        }
        bpRows.sort(BuildRows.BUILDPACKS);
        bRows.sort(BuildRows.BUILDERS);
        return report.withSection(new BuildSection(bpRows, bRows));
    }

    private static boolean in(String namespace, String objectNamespace) {
        return namespace == null || namespace.equals(objectNamespace);
    }

    /** The report with rows rendered from these views as they are, in {@code namespace} (null: all of them). */
    public static StatusReport addTo(StatusReport report, List<BuildpackView> bps, List<BuilderView> bs,
            String namespace) {
        return report.withSection(new BuildSection(BuildRows.buildpacks(bps.stream().filter(b -> in(namespace,
                b.namespace())).toList()), BuildRows.builders(bs.stream().filter(b -> in(namespace, b.namespace()))
                        .toList())));
    }
}
