package dev.rekon.modules.lifecycle.plan;

import java.util.Map;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.manifests.ManifestObjects;
import dev.rekon.modules.plan.ModuleDeployment;

/**
 * A module's manifest objects as the shared engine applies them: labelled as the module's
 * ({@value ModuleDeployment#MODULE_LABEL} the module).
 */
public final class ModuleObjects {

    private ModuleObjects() {
    }

    public static ObjectNode labelled(ObjectNode object, String module) {
        return ManifestObjects.labelled(object, Map.of(ModuleDeployment.MODULE_LABEL, module));
    }
}
