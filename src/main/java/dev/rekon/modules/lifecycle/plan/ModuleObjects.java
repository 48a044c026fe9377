package dev.rekon.modules.lifecycle.plan;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.core.ObjectRef;
import dev.rekon.manifests.ManifestObjects;
import dev.rekon.manifests.inventory.Inventory;
import dev.rekon.modules.plan.ModuleDeployment;

/**
 * A module's manifest objects as the shared engine applies them: labelled as the module's
 * ({@value ModuleDeployment#MODULE_LABEL} the module), and which of them an attempt reads.
 */
public final class ModuleObjects {

    private ModuleObjects() {
    }

    public static ObjectNode labelled(ObjectNode object, String module) {
        return ManifestObjects.labelled(object, Map.of(ModuleDeployment.MODULE_LABEL, module));
    }

    /**
     * The objects an attempt reads live: those of the target release and of the installed one (each with its
     * default CR and manager), and those the inventory records.
     */
    public static Set<ObjectRef> read(Inventory inventory, Resolution target, Resolution installed) {
        Set<ObjectRef> refs = new LinkedHashSet<>();
        if (target instanceof Resolution.Found f) {
            refs.addAll(refs(f.release()));
        }
        if (installed instanceof Resolution.Found f) {
            refs.addAll(refs(f.release()));
        }
        if (inventory != null) {
            inventory.objects().forEach(e -> refs.add(e.ref()));
        }
        return refs;
    }

    private static List<ObjectRef> refs(Release r) {
        List<ObjectRef> refs = new ArrayList<>();
        r.manifest().objects().forEach(o -> refs.add(ManifestObjects.ref(o)));
        if (r.manifest().defaultCr() != null) {
            refs.add(ManifestObjects.ref(r.manifest().defaultCr()));
        }
        if (r.manager() != null) {
            refs.add(r.manager());
        }
        return refs;
    }
}
