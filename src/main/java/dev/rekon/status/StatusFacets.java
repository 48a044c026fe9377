package dev.rekon.status;

import jakarta.inject.Singleton;

import com.fasterxml.jackson.databind.JsonNode;

import dev.rekon.buildpacks.catalog.KpackFacets;
import dev.rekon.buildpacks.view.BuildpackSource;
import dev.rekon.buildpacks.view.BuildpackView;
import dev.rekon.cluster.watch.KindFacet;
import dev.rekon.cluster.watch.WatchedKindId;
import dev.rekon.modules.release.KymaKind;
import dev.rekon.modules.release.KymaModules;
import dev.rekon.modules.release.ModuleTemplateView;
import dev.rekon.modules.release.ReleaseMetaView;

/**
 * What only the status page reads of kinds the functions watch anyway (each a facet of that kind's one watch):
 * a buildpack's view, and the views of Kyma's release objects.
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

    abstract static class Kyma<V> extends KindFacet<V> {
        private final KymaKind<V> kyma;

        Kyma(KymaKind<V> kyma) {
            super(kindOf(kyma.kind()));
            this.kyma = kyma;
        }

        private static WatchedKindId kindOf(String kind) {
            String[] gv = KymaModules.API_VERSION.split("/");
            return WatchedKindId.namespaced(gv[0], gv[1], kind.toLowerCase(java.util.Locale.ROOT) + "s", kind)
                    .inEveryNamespace();
        }

        @Override
        public V view(JsonNode object) {
            return kyma.view().apply(object);
        }
    }

    @Singleton
    public static class ReleaseMetas extends Kyma<ReleaseMetaView> {
        public ReleaseMetas() {
            super(KymaKind.RELEASE_META);
        }
    }

    @Singleton
    public static class Templates extends Kyma<ModuleTemplateView> {
        public Templates() {
            super(KymaKind.TEMPLATE);
        }
    }
}
