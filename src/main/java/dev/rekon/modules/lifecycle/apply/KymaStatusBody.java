package dev.rekon.modules.lifecycle.apply;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.modules.lifecycle.intent.ModuleStatus;
import dev.rekon.modules.lifecycle.plan.KymaStatusUpdate;

/**
 * The merge patch a {@link KymaStatusUpdate} writes, the one place a {@link ModuleStatus} becomes JSON: the Kyma's
 * resourceVersion as planned from (the guard), {@code status.state}, and {@code status.modules[]}: the Kyma's
 * entries as read, the module's entry replaced where it was (appended when it was not, left out when the update
 * removes it). Other modules' entries pass through as whoever wrote them made them.
 */
public final class KymaStatusBody {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private KymaStatusBody() {
    }

    public static ObjectNode patch(KymaStatusUpdate update) {
        ObjectNode patch = JSON.objectNode();
        patch.putObject("metadata").put("resourceVersion", update.kyma().resourceVersion());
        patch.putObject("status").put("state", update.state().name()).set("modules", modules(update));
        return patch;
    }

    public static ArrayNode modules(KymaStatusUpdate update) {
        ArrayNode modules = JSON.arrayNode();
        boolean placed = false;
        for (JsonNode m : update.kyma().statusModulesAsRead()) {
            if (!update.module().equals(m.path("name").asText())) {
                modules.add(m);
            } else if (!placed && update.entry() != null) {
                modules.add(entry(update.entry()));
                placed = true;
            }
        }
        if (!placed && update.entry() != null) {
            modules.add(entry(update.entry()));
        }
        return modules;
    }

    /**
     * The entry as Kyma's lifecycle-manager writes one. {@code maintenance} is written as the Kyma CRD defaults it
     * ({@code false}), so that an entry read back is the one written.
     */
    public static ObjectNode entry(ModuleStatus status) {
        ObjectNode o = JSON.objectNode().put("name", status.name()).put("state", status.state().name())
                .put("maintenance", false);
        put(o, "channel", status.channel());
        put(o, "version", status.version());
        put(o, "message", status.message());
        if (status.templateName() != null) {
            ObjectNode t = o.putObject("template").put("apiVersion", "operator.kyma-project.io/v1beta2")
                    .put("kind", "ModuleTemplate");
            t.putObject("metadata").put("name", status.templateName()).put("namespace", status.templateNamespace());
        }
        return o;
    }

    private static void put(ObjectNode o, String field, String value) {
        if (value != null) {
            o.put(field, value);
        }
    }
}
