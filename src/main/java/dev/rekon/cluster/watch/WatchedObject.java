package dev.rekon.cluster.watch;

import com.fasterxml.jackson.databind.JsonNode;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;

/**
 * An object a watch or its list delivered, kept as the tree the apiserver sent, with only the identity fabric8's
 * informer reads (apiVersion, kind, namespace, name, uid, resourceVersion) copied into its metadata. Every facet
 * reads the tree; nothing else of the object is ever turned into fabric8's model.
 */
final class WatchedObject extends GenericKubernetesResource {

    private final transient JsonNode tree;

    WatchedObject(JsonNode tree) {
        this.tree = tree;
        JsonNode meta = tree.path("metadata");
        setApiVersion(tree.path("apiVersion").asText(null));
        setKind(tree.path("kind").asText(null));
        setMetadata(new ObjectMetaBuilder().withName(meta.path("name").asText(null))
                .withNamespace(meta.path("namespace").asText(null)).withUid(meta.path("uid").asText(null))
                .withResourceVersion(meta.path("resourceVersion").asText(null)).build());
    }

    JsonNode tree() {
        return tree;
    }
}
