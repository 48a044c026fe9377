package dev.rekon.modules.release;

import java.util.function.Function;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * One of Kyma's release kinds ({@value KymaModules#API_VERSION}) and the typed view Rekon reads of its objects:
 * gateways read objects of a kind and answer only their views, made once, where the object is read.
 */
public record KymaKind<V>(String kind, Function<JsonNode, V> view) {

    public static final KymaKind<ReleaseMetaView> RELEASE_META = new KymaKind<>(KymaModules.RELEASE_META,
            ReleaseMetaView::of);
    public static final KymaKind<ModuleTemplateView> TEMPLATE = new KymaKind<>(KymaModules.TEMPLATE,
            ModuleTemplateView::of);
}
