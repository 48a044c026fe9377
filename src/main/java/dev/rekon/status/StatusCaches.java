package dev.rekon.status;

import java.util.ArrayList;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.rekon.buildpacks.catalog.KpackFacets;
import dev.rekon.buildpacks.view.BuilderView;
import dev.rekon.buildpacks.view.BuildpackView;
import dev.rekon.cluster.watch.SharedWatches;
import dev.rekon.core.RekonConfig;

/**
 * The status page's reads for the rows not yet made by an area's {@link AreaReport} (buildpacks,
 * decisions): the facets of the watches the functions keep ({@link SharedWatches}: one per kind, so the page adds
 * no watch of its own), read into one {@link StatusViews}. A report costs zero API calls.
 */
@ApplicationScoped
public class StatusCaches {

    @Inject
    SharedWatches watches;

    @Inject
    RekonConfig rekon;

    @Inject
    DecisionLog decisions;

    @Inject
    StatusFacets.NamespacedBuildpacks buildpacks;

    @Inject
    StatusFacets.ClusterBuildpacks clusterBuildpacks;

    @Inject
    KpackFacets.NamespacedBuilders builders;

    @Inject
    KpackFacets.ClusterBuilders clusterBuilders;


    /** What the watches hold, and this replica's decisions, read within the request's {@code read}. */
    public StatusViews views(StatusRead read) {
        List<BuildpackView> bps = new ArrayList<>(read.of(watches.of(buildpacks), "Buildpacks"));
        List<BuilderView> bs = new ArrayList<>(read.of(watches.of(builders), "Builders"));
        if (rekon.namespacePolicy().allows(null)) {
            bps.addAll(read.of(watches.of(clusterBuildpacks), "ClusterBuildpacks"));
            bs.addAll(read.of(watches.of(clusterBuilders), "ClusterBuilders"));
        }
        return new StatusViews(bps, bs, decisions.recent());
    }
}
