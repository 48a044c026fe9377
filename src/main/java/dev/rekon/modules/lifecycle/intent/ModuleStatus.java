package dev.rekon.modules.lifecycle.intent;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * One entry of a Kyma's {@code status.modules[]}: the fields Rekon writes (as Kyma's lifecycle-manager names them),
 * read once where the Kyma is read and written once by the gateway ({@code KymaStatusBody}). Planners compare
 * entries as these records; fields of an entry Rekon does not write are not compared, and are replaced when Rekon
 * next writes the entry.
 *
 * @param state null when the entry names a state Kyma does not define
 */
public record ModuleStatus(String name, String channel, String version, ModuleState state, String message,
        String templateNamespace, String templateName) {

    /** The entry as the Kyma holds it (a field of another type than the schema's counts as absent). */
    public static ModuleStatus of(JsonNode entry) {
        JsonNode template = entry.path("template").path("metadata");
        return new ModuleStatus(text(entry.path("name")), text(entry.path("channel")), text(entry.path("version")),
                ModuleState.of(text(entry.path("state"))), text(entry.path("message")),
                text(template.path("namespace")), text(template.path("name")));
    }

    private static String text(JsonNode n) {
        return n.isTextual() ? n.textValue() : null;
    }
}
