package dev.rekon.buildpacks.catalog;

import jakarta.inject.Singleton;

import com.fasterxml.jackson.databind.JsonNode;

import dev.rekon.buildpacks.view.BuildpackSource;
import dev.rekon.buildpacks.view.BuildpackView;
import dev.rekon.cluster.watch.KindFacet;

/**
 * What only the status page reads of the buildpack kinds the functions watch anyway (a facet of that kind's one
 * watch): a Buildpack's or ClusterBuildpack's view, its status included.
 */
public final class BuildpackViewFacets {

    private BuildpackViewFacets() {
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
