package dev.rekon.modules.lifecycle.plan;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * One entry of a Kyma's {@code status.modules[]}, as Kyma's lifecycle-manager writes it. {@code maintenance} is
 * written as the Kyma CRD defaults it ({@code false}), so that an entry read back equals the one planned and an
 * unchanged module writes no status.
 */
public record ModuleStatus(String name, String channel, String version, ModuleState state, String message,
        String templateNamespace, String templateName) {

    public ObjectNode toJson() {
        ObjectNode o = JsonNodeFactory.instance.objectNode().put("name", name).put("state", state.name())
                .put("maintenance", false);
        put(o, "channel", channel);
        put(o, "version", version);
        put(o, "message", message);
        if (templateName != null) {
            ObjectNode t = o.putObject("template").put("apiVersion", "operator.kyma-project.io/v1beta2")
                    .put("kind", "ModuleTemplate");
            t.putObject("metadata").put("name", templateName).put("namespace", templateNamespace);
        }
        return o;
    }

    private static void put(ObjectNode o, String field, String value) {
        if (value != null) {
            o.put(field, value);
        }
    }
}
