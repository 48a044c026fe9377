package dev.rekon.modules.lifecycle.intent;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;

/**
 * A Kyma as the module lifecycle reads it: which modules it declares ({@code spec.modules[]}), and the
 * {@code status.modules[]} Rekon last wrote, with the resourceVersion a status write is guarded by.
 */
public record KymaView(String namespace, String name, String resourceVersion, boolean deleting,
        List<DeclaredModule> modules, ArrayNode statusModules) {

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
        ArrayNode statusModules = status.isArray() ? ((ArrayNode) status).deepCopy() : JsonNodeFactory.instance.arrayNode();
        return new KymaView(meta.path("namespace").asText(), meta.path("name").asText(),
                meta.path("resourceVersion").asText(null), meta.hasNonNull("deletionTimestamp"), List.copyOf(modules),
                statusModules);
    }

    public Optional<DeclaredModule> declared(String module) {
        return modules.stream().filter(m -> m.name().equals(module)).findFirst();
    }

    /** The status entry Rekon wrote for a module, or null. */
    public JsonNode statusOf(String module) {
        for (JsonNode m : statusModules) {
            if (module.equals(m.path("name").asText())) {
                return m;
            }
        }
        return null;
    }

    private static String text(JsonNode n, String fallback) {
        String s = n.asText("");
        return s.isBlank() ? fallback : s;
    }
}
