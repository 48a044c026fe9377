package dev.rekon.buildpacks;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.rekon.buildpacks.catalog.BuildpackViewFacets;
import dev.rekon.buildpacks.catalog.KpackFacets;
import dev.rekon.buildpacks.status.BuildRows;
import dev.rekon.buildpacks.status.BuildSection;
import dev.rekon.buildpacks.view.BuilderView;
import dev.rekon.buildpacks.view.BuildpackView;
import dev.rekon.cluster.watch.SharedWatches;
import dev.rekon.core.RekonConfig;
import dev.rekon.status.AreaReport;
import dev.rekon.status.StatusRead;
import dev.rekon.status.StatusReport;

/**
 * The buildpacks rows of the status page: every Buildpack, ClusterBuildpack, Builder and ClusterBuilder the watch
 * caches hold in the namespace asked for (cluster-scoped ones only when every namespace is allowed), rendered
 * from the statuses the loop wrote ({@link BuildRows}).
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
        return addTo(report, bps, bs, namespace);
    }

    /** The report with the rows of these views in {@code namespace} (null: all of them). */
    public static StatusReport addTo(StatusReport report, List<BuildpackView> bps, List<BuilderView> bs,
            String namespace) {
        return report.withSection(new BuildSection(BuildRows.buildpacks(bps.stream().filter(b -> namespace == null
                || namespace.equals(b.namespace())).toList()), BuildRows.builders(bs.stream()
                        .filter(b -> namespace == null || namespace.equals(b.namespace())).toList())));
    }
}
