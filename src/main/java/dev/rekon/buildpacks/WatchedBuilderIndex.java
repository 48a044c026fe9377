package dev.rekon.buildpacks;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.rekon.cluster.Versioned;
import dev.rekon.core.RekonConfig;

/**
 * The {@link BuilderIndex} fed by watches: the Builders and ClusterBuilders by what their order names (the keys of {@link AffectedBuilders}: buildpack
 * ids, resources, image repositories), each converted to its {@link BuilderView} once when its watch delivers
 * it, so that a buildpack change or a push finds the Builders it concerns without listing them. A view may lag
 * the apiserver by the watch's delay: it comes with the resourceVersion it was seen at, to guard the write
 * planned from it. Where no watch runs it lists, as before.
 */
@ApplicationScoped
public class WatchedBuilderIndex implements BuilderIndex {

    @Inject
    KubeBuildpackGateway gateway;

    @Inject
    RekonConfig config;

    private final Map<String, KpackViews<BuilderView>> views = new ConcurrentHashMap<>();

    @Override
    public List<Versioned<BuilderView>> candidates(BuildpackSource changed, Collection<String> keys) {
        boolean cluster = BuildpackSource.CLUSTER_BUILDPACK.equals(changed.kind());
        List<Versioned<BuilderView>> found = new ArrayList<>(views(BuilderView.BUILDER).find(cluster ? null : changed.namespace(), keys));
        if (cluster) {
            found.addAll(views(BuilderView.CLUSTER_BUILDER).find(null, keys));
        }
        return found;
    }

    @Override
    public List<Versioned<BuilderView>> namingRepository(String repositoryKey) {
        Set<String> key = Set.of(AffectedBuilders.forRepository(repositoryKey));
        List<Versioned<BuilderView>> found = new ArrayList<>(views(BuilderView.BUILDER).find(null, key));
        found.addAll(views(BuilderView.CLUSTER_BUILDER).find(null, key));
        return found;
    }

    private KpackViews<BuilderView> views(String kind) {
        return views.computeIfAbsent(kind, k -> new KpackViews<>(k, gateway, config.namespacePolicy(), BuilderView::of,
                AffectedBuilders::keysOf));
    }

    @PreDestroy
    void stop() {
        views.values().forEach(KpackViews::stop);
    }
}
