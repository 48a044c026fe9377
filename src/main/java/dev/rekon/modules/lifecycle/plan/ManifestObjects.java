package dev.rekon.modules.lifecycle.plan;

import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.core.ObjectRef;
import dev.rekon.modules.plan.ModuleDeployment;

/**
 * A manifest object as the module lifecycle applies it: named by an {@link ObjectRef}, labelled as the module's
 * ({@value #MANAGED_BY} {@code rekon}, {@value ModuleDeployment#MODULE_LABEL} the module). A namespaced kind must
 * name its namespace: Rekon applies nothing into a namespace it did not check.
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

    /** The object a ModuleTemplate's {@code spec.manager} ({group, version, kind, namespace, name}) names, or null. */
    public static ObjectRef managerRef(JsonNode manager) {
        if (manager == null || !manager.isObject()) {
            return null;
        }
        String group = manager.path("group").asText("");
        return new ObjectRef((group.isEmpty() ? "" : group + "/") + manager.path("version").asText(),
                manager.path("kind").asText(), manager.path("namespace").asText(null), manager.path("name").asText());
    }

    /** Whether a kind without a namespace is one that has none; false for a namespaced kind missing its namespace. */
    public static boolean scopeKnown(ObjectRef ref) {
        return ref.namespace() != null || CLUSTER_KINDS.contains(ref.kind());
    }

    public static ObjectNode labelled(ObjectNode object, String module) {
        ObjectNode copy = object.deepCopy();
        ObjectNode labels = copy.with("metadata").with("labels");
        labels.put(MANAGED_BY, "rekon");
        labels.put(ModuleDeployment.MODULE_LABEL, module);
        return copy;
    }
}
