package dev.rekon.buildpacks.catalog;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.rekon.buildpacks.plan.AffectedBuilders;
import dev.rekon.buildpacks.view.BuilderView;
import dev.rekon.buildpacks.view.BuildpackSource;
import dev.rekon.cluster.Versioned;
import dev.rekon.cluster.watch.SharedWatches;

/**
 * The {@link BuilderIndex} fed by watches: the Builders and ClusterBuilders by what their order names (the keys of
 * {@link AffectedBuilders}: buildpack ids, resources, image repositories), the facets of their one watch each
 * ({@link KpackFacets}), each converted to its {@link BuilderView} once when its watch delivers
 * it, so that a buildpack change or a push finds the Builders it concerns without listing them. A view may lag
 * the apiserver by the watch's delay: it comes with the resourceVersion it was seen at, to guard the write
 * planned from it. Where no watch runs it lists, as before.
 */
@ApplicationScoped
public class WatchedBuilderIndex implements BuilderIndex {

    @Inject
    SharedWatches watches;

    @Inject
    KpackFacets.NamespacedBuilders builders;

    @Inject
    KpackFacets.ClusterBuilders clusterBuilders;

    @Override
    public List<Versioned<BuilderView>> candidates(BuildpackSource changed, Collection<String> keys) {
        boolean cluster = BuildpackSource.CLUSTER_BUILDPACK.equals(changed.kind());
        List<Versioned<BuilderView>> found = new ArrayList<>(find(BuilderView.BUILDER, cluster ? null : changed.namespace(), keys));
        if (cluster) {
            found.addAll(find(BuilderView.CLUSTER_BUILDER, null, keys));
        }
        return found;
    }

    @Override
    public List<Versioned<BuilderView>> namingRepository(String repositoryKey) {
        Set<String> key = Set.of(AffectedBuilders.forRepository(repositoryKey));
        List<Versioned<BuilderView>> found = new ArrayList<>(find(BuilderView.BUILDER, null, key));
        found.addAll(find(BuilderView.CLUSTER_BUILDER, null, key));
        return found;
    }

    @Override
    public List<Versioned<BuilderView>> all(String namespace) {
        List<Versioned<BuilderView>> found = new ArrayList<>(find(BuilderView.BUILDER, namespace, null));
        if (namespace == null) {
            found.addAll(find(BuilderView.CLUSTER_BUILDER, null, null));
        }
        return found;
    }

    private List<Versioned<BuilderView>> find(String kind, String namespace, Collection<String> keys) {
        boolean namespaced = BuilderView.BUILDER.equals(kind);
        return watches.of(namespaced ? builders : clusterBuilders).cachedOrListed(namespaced ? namespace : null, keys);
    }
}
