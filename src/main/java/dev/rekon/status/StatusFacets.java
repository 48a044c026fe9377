package dev.rekon.status;

import jakarta.inject.Singleton;

import com.fasterxml.jackson.databind.JsonNode;

import dev.rekon.buildpacks.catalog.KpackFacets;
import dev.rekon.buildpacks.view.BuildpackSource;
import dev.rekon.buildpacks.view.BuildpackView;
import dev.rekon.cluster.watch.KindFacet;

/**
 * What only the status page reads of kinds the functions watch anyway (each a facet of that kind's one watch):
 * a buildpack's view.
 */
public final class StatusFacets {

    private StatusFacets() {
    }

    abstract static class Buildpacks extends KindFacet<BuildpackView> {
        Buildpacks(String kind) {
            super(KpackFacets.kindOf(kind));
        }

        @Override
        public BuildpackView view(JsonNode object) {
            return BuildpackView.of(object);
        }
    }

    @Singleton
    public static class NamespacedBuildpacks extends Buildpacks {
        public NamespacedBuildpacks() {
            super(BuildpackSource.BUILDPACK);
        }
    }

    @Singleton
    public static class ClusterBuildpacks extends Buildpacks {
        public ClusterBuildpacks() {
            super(BuildpackSource.CLUSTER_BUILDPACK);
        }
    }
}
