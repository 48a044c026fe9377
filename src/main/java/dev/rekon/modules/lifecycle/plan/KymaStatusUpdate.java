package dev.rekon.modules.lifecycle.plan;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;

import dev.rekon.modules.lifecycle.intent.KymaView;

/**
 * The Kyma status a module's plan leads to: its {@code status.modules[]} with this module's entry replaced (or
 * removed once it is uninstalled), and {@code status.state} the worst of them. Null from {@link #of} when it is
 * what the Kyma already has, so an in-line module writes nothing (kpack's updateStatus, skipped when equal).
 */
public record KymaStatusUpdate(KymaView kyma, ArrayNode modules, String state) {

    static KymaStatusUpdate of(KymaView kyma, String module, ModuleStatus entry) {
        if (kyma == null || kyma.deleting() && entry != null) {
            return null;
        }
        ArrayNode modules = JsonNodeFactory.instance.arrayNode();
        boolean placed = false;
        for (JsonNode m : kyma.statusModules()) {
            if (module.equals(m.path("name").asText())) {
                if (entry != null) {
                    modules.add(entry.toJson());
                }
                placed = true;
            } else {
                modules.add(m);
            }
        }
        if (!placed && entry != null) {
            modules.add(entry.toJson());
        }
        if (modules.equals(kyma.statusModules())) {
            return null;
        }
        List<ModuleState> states = new ArrayList<>();
        modules.forEach(m -> states.add(ModuleState.parse(m.path("state").asText())));
        return new KymaStatusUpdate(kyma, modules, ModuleState.worst(states).name());
    }
}
