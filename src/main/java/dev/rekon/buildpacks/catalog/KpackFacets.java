package dev.rekon.buildpacks.catalog;

import java.util.Collection;
import java.util.List;
import java.util.Locale;

import jakarta.inject.Singleton;

import com.fasterxml.jackson.databind.JsonNode;

import dev.rekon.buildpacks.plan.AffectedBuilders;
import dev.rekon.buildpacks.view.BuilderView;
import dev.rekon.buildpacks.view.BuildpackSource;
import dev.rekon.buildpacks.view.BuildpackView;
import dev.rekon.cluster.watch.KindFacet;
import dev.rekon.cluster.watch.WatchedKindId;

/**
 * The kpack kinds buildpack publication reads, each as a facet of its one watch: Buildpacks and ClusterBuildpacks as
 * {@link BuildpackCatalog.Cataloged} entries found by the repository they were published from, Builders and
 * ClusterBuilders as {@link BuilderView}s found by what their order names ({@link AffectedBuilders#keysOf}).
 */
public final class KpackFacets {

    private KpackFacets() {
    }

    /** Whether the kpack kind is namespaced (Buildpack, Builder) rather than cluster-scoped. */
    public static boolean namespaced(String kind) {
        return kind.equals(BuildpackSource.BUILDPACK) || kind.equals(BuilderView.BUILDER);
    }

    /** The kpack kind, served as {@code kpack.io/v1alpha2}. */
    public static WatchedKindId kindOf(String kind) {
        String plural = kind.toLowerCase(Locale.ROOT) + "s";
        return namespaced(kind) ? WatchedKindId.namespaced("kpack.io", "v1alpha2", plural, kind)
                : WatchedKindId.clusterScoped("kpack.io", "v1alpha2", plural, kind);
    }

    /** A buildpack kind's entries in the catalog. */
    public abstract static class Catalog extends KindFacet<BuildpackCatalog.Cataloged> {
        Catalog(String kind) {
            super(kindOf(kind));
        }

        @Override
        public BuildpackCatalog.Cataloged view(JsonNode object) {
            return WatchedBuildpackCatalog.cataloged(BuildpackView.of(object));
        }

        @Override
        public Collection<String> indexKeys(BuildpackCatalog.Cataloged c) {
            return c.repository() == null ? List.of() : List.of(c.repository());
        }
    }

    @Singleton
    public static class Buildpacks extends Catalog {
        public Buildpacks() {
            super(BuildpackSource.BUILDPACK);
        }
    }

    @Singleton
    public static class ClusterBuildpacks extends Catalog {
        public ClusterBuildpacks() {
            super(BuildpackSource.CLUSTER_BUILDPACK);
        }
    }

    /** A builder kind as the resolution and the status page read it. */
    public abstract static class Builders extends KindFacet<BuilderView> {
        Builders(String kind) {
            super(kindOf(kind));
        }

        @Override
        public BuilderView view(JsonNode object) {
            return BuilderView.of(object);
        }

        @Override
        public Collection<String> indexKeys(BuilderView view) {
            return AffectedBuilders.keysOf(view);
        }
    }

    @Singleton
    public static class NamespacedBuilders extends Builders {
        public NamespacedBuilders() {
            super(BuilderView.BUILDER);
        }
    }

    @Singleton
    public static class ClusterBuilders extends Builders {
        public ClusterBuilders() {
            super(BuilderView.CLUSTER_BUILDER);
        }
    }
}
