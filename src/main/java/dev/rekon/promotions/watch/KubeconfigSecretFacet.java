package dev.rekon.promotions.watch;

import java.util.LinkedHashMap;
import java.util.Map;

import jakarta.inject.Singleton;

import com.fasterxml.jackson.databind.JsonNode;

import dev.rekon.cluster.watch.FacetViews;
import dev.rekon.cluster.watch.KindFacet;
import dev.rekon.cluster.watch.WatchedKindId;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;

/**
 * A remote stage's kubeconfig Secret as its client is made from it: each watched by its name alone
 * ({@link FacetViews#named}), never a namespace's Secrets, since Rekon may be granted no more than that name. The view
 * keeps what a kubeconfig is read from, the Secret's identity and data, made by hand from the tree so that no
 * conversion can fail on it (and put its content in a message).
 */
@Singleton
public class KubeconfigSecretFacet extends KindFacet<Secret> {

    public KubeconfigSecretFacet() {
        super(WatchedKindId.namespaced("", "v1", "secrets", "Secret"));
    }

    @Override
    public Secret view(JsonNode object) {
        JsonNode meta = object.path("metadata");
        Map<String, String> data = new LinkedHashMap<>();
        object.path("data").fields().forEachRemaining(f -> data.put(f.getKey(), f.getValue().asText()));
        return new SecretBuilder().withNewMetadata().withNamespace(meta.path("namespace").asText(null))
                .withName(meta.path("name").asText(null)).withResourceVersion(meta.path("resourceVersion").asText(null))
                .endMetadata().withType(object.path("type").asText(null)).withData(data).build();
    }
}
