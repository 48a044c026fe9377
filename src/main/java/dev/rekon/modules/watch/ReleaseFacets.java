package dev.rekon.modules.watch;

import jakarta.inject.Singleton;

import com.fasterxml.jackson.databind.JsonNode;

import dev.rekon.cluster.watch.KindFacet;
import dev.rekon.cluster.watch.WatchedKindId;
import dev.rekon.modules.release.KymaKind;
import dev.rekon.modules.release.KymaModules;
import dev.rekon.modules.release.ModuleTemplateView;
import dev.rekon.modules.release.ReleaseMetaView;

/**
 * Kyma's release objects as the status page reads them (each a facet of that kind's one watch, in every
 * namespace): ModuleReleaseMetas and ModuleTemplates as their typed views.
 */
public final class ReleaseFacets {

    private ReleaseFacets() {
    }

    /** The one watch of a Kyma release kind, in every namespace: every facet of that kind must name it so. */
    public static WatchedKindId kindOf(String kind) {
        String[] gv = KymaModules.API_VERSION.split("/");
        return WatchedKindId.namespaced(gv[0], gv[1], kind.toLowerCase(java.util.Locale.ROOT) + "s", kind)
                .inEveryNamespace();
    }

    public abstract static class Kyma<V> extends KindFacet<V> {
        private final KymaKind<V> kyma;

        Kyma(KymaKind<V> kyma) {
            super(kindOf(kyma.kind()));
            this.kyma = kyma;
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
