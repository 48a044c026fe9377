package dev.rekon.modules.lifecycle.watch;

import java.util.Collection;
import java.util.List;

import jakarta.inject.Singleton;

import com.fasterxml.jackson.databind.JsonNode;

import dev.rekon.cluster.watch.KindFacet;
import dev.rekon.cluster.watch.WatchedKindId;
import dev.rekon.modules.lifecycle.intent.KymaView;

/** Kymas as the lifecycle's loads and the status page find them: by name within their namespace, or all. */
@Singleton
public class KymaFacet extends KindFacet<KymaView> {

    public KymaFacet() {
        super(WatchedKindId.namespaced("operator.kyma-project.io", "v1beta2", "kymas", "Kyma"));
    }

    @Override
    public KymaView view(JsonNode object) {
        return KymaView.of(object);
    }

    @Override
    public Collection<String> indexKeys(KymaView view) {
        return List.of(view.name());
    }
}
