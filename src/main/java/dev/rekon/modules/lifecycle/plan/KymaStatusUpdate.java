package dev.rekon.modules.lifecycle.plan;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

import dev.rekon.modules.lifecycle.intent.KymaView;

/**
 * The Kyma status a module's plan leads to: this module's entry of {@code status.modules[]} set (or removed once it
 * is uninstalled), the other modules' entries kept as the Kyma has them, and {@code status.state} the worst of them.
 * Null from {@link #of} when it is what the Kyma already has, so an in-line module writes nothing (kpack's
 * updateStatus, skipped when equal). The gateway writes it guarded by the Kyma's resourceVersion.
 *
 * @param module the module whose entry this sets
 * @param entry the module's entry, or null to remove it
 * @param state the Kyma's {@code status.state} that follows
 */
public record KymaStatusUpdate(KymaView kyma, String module, ModuleStatus entry, String state) {

    static KymaStatusUpdate of(KymaView kyma, String module, ModuleStatus entry) {
        if (kyma == null || kyma.deleting() && entry != null) {
            return null;
        }
        JsonNode current = null;
        List<ModuleState> states = new ArrayList<>();
        for (JsonNode m : kyma.statusModules()) {
            if (module.equals(m.path("name").asText())) {
                current = m;
            } else {
                states.add(ModuleState.parse(m.path("state").asText()));
            }
        }
        if (entry == null ? current == null : entry.toJson().equals(current)) {
            return null;
        }
        if (entry != null) {
            states.add(entry.state());
        }
        return new KymaStatusUpdate(kyma, module, entry, ModuleState.worst(states).name());
    }
}
