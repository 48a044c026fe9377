package dev.rekon.modules.ocm;

import java.nio.charset.StandardCharsets;
import java.util.List;
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
 * <li>{@code jsonNormalisation/v3} and {@code jsonNormalisation/v4alpha1} (which OCM defines to give the same
 * bytes): the v2 serialisation in RFC 8785 form, without {@code meta}, signatures, nested digests and repository
 * contexts, the provider as an object, and in resources and sources without access (and {@code srcRefs}); a
 * resource with access type {@code none} without its digest. Its {@code creationTime} and
 * {@code componentReferences} stay, as OCM's implementations keep them: the references' labels unfiltered, since
 * OCM's exclusion rule names them {@code references}.</li>
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
    /** Fields of OCM's v2 types serialised even when empty (no omitempty). */
    private static final Set<String> ALWAYS = Set.of("name", "version", "type", "relation", "componentName");
    private static final List<String> RESOURCE_FIELDS = List.of("name", "version", "extraIdentity", "labels", "type",
            "relation", "digest");
    private static final List<String> SOURCE_FIELDS = List.of("name", "version", "extraIdentity", "labels", "type");
    private static final List<String> REFERENCE_FIELDS = List.of("name", "version", "extraIdentity", "labels",
            "componentName", "digest");

    private Normalisation() {
    }

    /** @throws IllegalArgumentException for an algorithm not in {@link #SUPPORTED} */
    public static byte[] normalise(JsonNode descriptor, String algorithm) {
        String text = switch (algorithm == null ? "" : algorithm) {
            case V1 -> CanonicalJson.entryList(legacy(descriptor));
            case V2 -> CanonicalJson.entryList(fieldSet(descriptor, "componentReferences"));
            case V3, V4ALPHA1 -> CanonicalJson.jcs(serialisation(descriptor));
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

    /** The v2 serialisation's fields as OCM's Go type has them, less what a signature does not cover. */
    private static ObjectNode serialisation(JsonNode descriptor) {
        JsonNode c = descriptor.path("component");
        ObjectNode component = JSON.objectNode();
        copy(c, component, List.of("name", "version", "creationTime", "labels"));
        filterLabels(component);
        JsonNode provider = c.path("provider");
        ObjectNode p = provider.isObject() ? ((ObjectNode) provider).deepCopy()
                : JSON.objectNode().put("name", provider.asText(""));
        filterLabels(p);
        component.set("provider", p);
        component.set("resources", elements(c.path("resources"), RESOURCE_FIELDS, true));
        component.set("sources", elements(c.path("sources"), SOURCE_FIELDS, true));
        component.set("componentReferences", elements(c.path("componentReferences"), REFERENCE_FIELDS, false));
        return JSON.objectNode().set("component", component);
    }

    /** Resources, sources or references with the fields of OCM's v2 type, empty ones left out as its JSON does. */
    private static ArrayNode elements(JsonNode list, List<String> fields, boolean signedLabelsOnly) {
        ArrayNode out = JSON.arrayNode();
        for (JsonNode item : list) {
            ObjectNode copy = JSON.objectNode();
            copy(item, copy, fields);
            if (item.path("access").path("type").asText("").equalsIgnoreCase("none")) {
                copy.remove("digest");
            }
            if (signedLabelsOnly) {
                filterLabels(copy);
            }
            out.add(copy);
        }
        return out;
    }

    /** Copies the fields; those the Go type does not mark omitempty are there even when empty. */
    private static void copy(JsonNode from, ObjectNode to, List<String> fields) {
        for (String field : fields) {
            JsonNode v = from.get(field);
            boolean empty = v == null || v.isNull() || (v.isContainerNode() && v.isEmpty())
                    || (v.isTextual() && v.asText().isEmpty());
            if (!empty) {
                to.set(field, v.deepCopy());
            } else if (ALWAYS.contains(field)) {
                to.put(field, v == null || v.isNull() ? "" : v.asText());
            }
        }
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
