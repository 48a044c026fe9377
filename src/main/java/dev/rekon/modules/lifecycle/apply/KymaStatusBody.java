package dev.rekon.modules.lifecycle.apply;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;

import dev.rekon.modules.lifecycle.plan.KymaStatusUpdate;

/**
 * The {@code status.modules[]} a {@link KymaStatusUpdate} writes: the Kyma's entries as read, the module's entry
 * replaced where it was (appended when it was not, left out when the update removes it). Other modules' entries
 * pass through as whoever wrote them made them.
 */
public final class KymaStatusBody {

    private KymaStatusBody() {
    }

    public static ArrayNode modules(KymaStatusUpdate update) {
        ArrayNode modules = JsonNodeFactory.instance.arrayNode();
        boolean placed = false;
        for (JsonNode m : update.kyma().statusModules()) {
            if (!update.module().equals(m.path("name").asText())) {
                modules.add(m);
            } else if (!placed && update.entry() != null) {
                modules.add(update.entry().toJson());
                placed = true;
            }
        }
        if (!placed && update.entry() != null) {
            modules.add(update.entry().toJson());
        }
        return modules;
    }
}
