package dev.rekon.modules.lifecycle.plan;

import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.core.ObjectRef;
import dev.rekon.manifests.ManifestObjects;
import dev.rekon.modules.plan.ModuleDeployment;

/**
 * A module's manifest objects as the shared engine applies them: labelled as the module's
 * ({@value ModuleDeployment#MODULE_LABEL} the module), and the manager object a ModuleTemplate names.
 */
public final class ModuleObjects {

    private ModuleObjects() {
    }

    public static ObjectNode labelled(ObjectNode object, String module) {
        return ManifestObjects.labelled(object, Map.of(ModuleDeployment.MODULE_LABEL, module));
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
}
