package dev.rekon.manifests;

import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.core.ObjectRef;

/**
 * A manifest object as the engine applies it: named by an {@link ObjectRef}, labelled as its owner's
 * ({@value #MANAGED_BY} {@code rekon} and the owner's label). A namespaced kind must name its namespace: Rekon
 * applies nothing into a namespace it did not check.
 */
public final class ManifestObjects {

    public static final String MANAGED_BY = "app.kubernetes.io/managed-by";
    private static final Set<String> CLUSTER_KINDS = Set.of("Namespace", "CustomResourceDefinition", "ClusterRole",
            "ClusterRoleBinding", "PriorityClass", "StorageClass", "ValidatingWebhookConfiguration",
            "MutatingWebhookConfiguration", "APIService", "PersistentVolume", "IngressClass", "RuntimeClass",
            "ValidatingAdmissionPolicy", "ValidatingAdmissionPolicyBinding");

    private ManifestObjects() {
    }

    public static ObjectRef ref(JsonNode object) {
        JsonNode meta = object.path("metadata");
        String ns = meta.path("namespace").asText("");
        return new ObjectRef(object.path("apiVersion").asText(), object.path("kind").asText(),
                ns.isBlank() ? null : ns, meta.path("name").asText());
    }

    /** Whether a kind without a namespace is one that has none; false for a namespaced kind missing its namespace. */
    public static boolean scopeKnown(ObjectRef ref) {
        return ref.namespace() != null || CLUSTER_KINDS.contains(ref.kind());
    }

    /** Whether the kind is one of the cluster-scoped kinds the engine knows without asking the server. */
    public static boolean clusterKind(String kind) {
        return CLUSTER_KINDS.contains(kind);
    }

    /** A copy of the object with {@value #MANAGED_BY} {@code rekon} and the owner's labels. */
    public static ObjectNode labelled(ObjectNode object, Map<String, String> ownerLabels) {
        ObjectNode copy = object.deepCopy();
        ObjectNode labels = copy.with("metadata").with("labels");
        labels.put(MANAGED_BY, "rekon");
        ownerLabels.forEach(labels::put);
        return copy;
    }
}
