package dev.rekon.modules.ocm;

import java.nio.charset.StandardCharsets;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Reduces an OCM component descriptor (schema v2, as a ModuleTemplate carries it) to the bytes its
 * signature digest is computed over, per the OCM specification: transport details (repository contexts,
 * access specifications) and labels not marked {@code signing: true} are left out.
 * <ul>
 * <li>{@code jsonNormalisation/v1}: the v2 serialisation itself, including {@code meta}, without sources,
 * in the generic entry-list form;</li>
 * <li>{@code jsonNormalisation/v2}: the format-independent field set, in the generic entry-list form;</li>
 * <li>{@code jsonNormalisation/v3} and {@code jsonNormalisationV4alpha1}: the same field set in RFC 8785 form.</li>
 * </ul>
 */
public final class Normalisation {

    public static final String V1 = "jsonNormalisation/v1";
    public static final String V2 = "jsonNormalisation/v2";
    public static final String V3 = "jsonNormalisation/v3";
    public static final String V4ALPHA1 = "jsonNormalisation/v4alpha1";
    public static final Set<String> SUPPORTED = Set.of(V1, V2, V3, V4ALPHA1);

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final Set<String> LABEL_FIELDS = Set.of("name", "version", "value", "signing");

    private Normalisation() {
    }

    /** @throws IllegalArgumentException for an algorithm not in {@link #SUPPORTED} */
    public static byte[] normalise(JsonNode descriptor, String algorithm) {
        String text = switch (algorithm == null ? "" : algorithm) {
            case V1 -> CanonicalJson.entryList(legacy(descriptor));
            case V2 -> CanonicalJson.entryList(fieldSet(descriptor, "componentReferences"));
            case V3, V4ALPHA1 -> CanonicalJson.jcs(fieldSet(descriptor, "references"));
            default -> throw new IllegalArgumentException("normalisation algorithm '" + algorithm
                    + "' is not supported; use one of " + new java.util.TreeSet<>(SUPPORTED));
        };
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static ObjectNode legacy(JsonNode descriptor) {
        ObjectNode copy = descriptor.deepCopy();
        copy.remove(Set.of("signatures", "nestedDigests"));
        if (copy.get("component") instanceof ObjectNode component) {
            component.remove(Set.of("repositoryContexts", "sources"));
            filterLabels(component);
            component.set("resources", artifacts(component.path("resources"), true));
            component.set("componentReferences", artifacts(component.path("componentReferences"), false));
            if (component.get("provider") instanceof ObjectNode provider) {
                filterLabels(provider);
            }
        }
        return copy;
    }

    private static ObjectNode fieldSet(JsonNode descriptor, String referencesField) {
        JsonNode c = descriptor.path("component");
        ObjectNode component = JSON.objectNode();
        component.set("name", c.path("name"));
        component.set("version", c.path("version"));
        JsonNode provider = c.path("provider");
        component.set("provider", provider.isTextual() ? JSON.objectNode().put("name", provider.textValue())
                : provider.deepCopy());
        if (c.has("labels")) {
            component.set("labels", c.get("labels").deepCopy());
            filterLabels(component);
        }
        component.set("resources", artifacts(c.path("resources"), true));
        component.set("sources", artifacts(c.path("sources"), true));
        component.set(referencesField, artifacts(c.path("componentReferences"), false));
        return JSON.objectNode().set("component", component);
    }

    /** Copies resources, sources or references without access data and with only signing labels. */
    private static ArrayNode artifacts(JsonNode list, boolean hasAccess) {
        ArrayNode out = JSON.arrayNode();
        for (JsonNode item : list) {
            ObjectNode copy = item.deepCopy();
            if (hasAccess) {
                String accessType = item.path("access").path("type").asText("");
                if (accessType.equalsIgnoreCase("none")) {
                    copy.remove("digest");
                }
                copy.remove(Set.of("access", "srcRefs"));
            }
            filterLabels(copy);
            out.add(copy);
        }
        return out;
    }

    private static void filterLabels(ObjectNode owner) {
        if (!owner.has("labels")) {
            return;
        }
        ArrayNode kept = JSON.arrayNode();
        for (JsonNode label : owner.get("labels")) {
            JsonNode signing = label.path("signing");
            if (signing.asBoolean(false) || "true".equals(signing.asText())) {
                ObjectNode l = JSON.objectNode();
                label.fields().forEachRemaining(f -> {
                    if (LABEL_FIELDS.contains(f.getKey())) {
                        l.set(f.getKey(), f.getValue());
                    }
                });
                kept.add(l);
            }
        }
        if (kept.isEmpty()) {
            owner.remove("labels");
        } else {
            owner.set("labels", kept);
        }
    }
}
