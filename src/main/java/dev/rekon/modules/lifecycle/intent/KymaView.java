package dev.rekon.modules.lifecycle.intent;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;

/**
 * A Kyma as the module lifecycle reads it: which modules it declares ({@code spec.modules[]}), and its
 * {@code status.modules[]}, with the resourceVersion a status write is guarded by.
 *
 * @param statusModules the status entries, as planners compare them
 * @param statusModulesAsRead the same entries as read, which a status write passes through for the modules it does
 *        not set (their writers' fields kept); nothing plans on them
 */
public record KymaView(String namespace, String name, String resourceVersion, boolean deleting,
        List<DeclaredModule> modules, List<ModuleStatus> statusModules, ArrayNode statusModulesAsRead) {

    public static KymaView of(JsonNode kyma) {
        JsonNode meta = kyma.path("metadata");
        JsonNode spec = kyma.path("spec");
        String channel = text(spec.path("channel"), DeclaredModule.DEFAULT_CHANNEL);
        List<DeclaredModule> modules = new ArrayList<>();
        for (JsonNode m : spec.path("modules")) {
            String name = text(m.path("name"), null);
            if (name != null) {
                modules.add(new DeclaredModule(name, text(m.path("channel"), channel), m.path("managed").asBoolean(true),
                        !"Ignore".equals(m.path("customResourcePolicy").asText())));
            }
        }
        JsonNode status = kyma.path("status").path("modules");
        ArrayNode asRead = status.isArray() ? ((ArrayNode) status).deepCopy() : JsonNodeFactory.instance.arrayNode();
        List<ModuleStatus> statusModules = new ArrayList<>();
        asRead.forEach(m -> statusModules.add(ModuleStatus.of(m)));
        return new KymaView(meta.path("namespace").asText(), meta.path("name").asText(),
                meta.path("resourceVersion").asText(null), meta.hasNonNull("deletionTimestamp"), List.copyOf(modules),
                List.copyOf(statusModules), asRead);
    }

    public Optional<DeclaredModule> declared(String module) {
        return modules.stream().filter(m -> m.name().equals(module)).findFirst();
    }

    /** The module's status entry, or null. */
    public ModuleStatus statusOf(String module) {
        return statusModules.stream().filter(m -> module.equals(m.name())).findFirst().orElse(null);
    }

    private static String text(JsonNode n, String fallback) {
        String s = n.asText("");
        return s.isBlank() ? fallback : s;
    }
}
