package dev.rekon.modules.publish.plan;

import java.util.Iterator;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.manifests.ManifestObjects;
import dev.rekon.modules.publish.source.ComponentVersion;
import dev.rekon.modules.release.KymaModules;

/**
 * The ModuleTemplate of a published component version, in the shape the lifecycle reads
 * ({@link dev.rekon.modules.release.ModuleTemplateView}), pure: the component's own {@code moduletemplate}
 * resource when it has one, else one made from the descriptor, the {@code default-cr} resource and the manager
 * the component's label {@value #MANAGER_LABEL} names. Either way its name is {@code <module>-<version>}, its
 * {@code spec.descriptor} the component's descriptor as pushed (signatures included, so the lifecycle verifies it),
 * and it records the component version's digest.
 */
public final class TemplateDraft {

    /** A component label whose value is the manager object: {@code {group, version, kind, name, namespace}}. */
    public static final String MANAGER_LABEL = "rekon.dev/module-manager";

    /** The component's template does not describe the version pushed. */
    public static final class Mismatch extends Exception {
        Mismatch(String message) {
            super(message, null, false, false);
        }
    }

    private TemplateDraft() {
    }

    public static ObjectNode of(ComponentVersion v, PublishKey key) throws Mismatch {
        ObjectNode carried = v.moduleTemplate();
        ObjectNode spec = carried == null ? JsonNodeFactory.instance.objectNode()
                : carried.path("spec") instanceof ObjectNode s ? s.deepCopy() : JsonNodeFactory.instance.objectNode();
        same(spec, "moduleName", key.module());
        same(spec, "version", key.version());
        spec.put("moduleName", key.module());
        spec.put("version", key.version());
        spec.set("descriptor", v.descriptor().deepCopy());
        if (!spec.has("data") && v.defaultCr() != null) {
            spec.set("data", v.defaultCr().deepCopy());
        }
        JsonNode manager = manager(v);
        if (!spec.has("manager") && manager != null) {
            spec.set("manager", manager);
        }
        ObjectNode t = JsonNodeFactory.instance.objectNode();
        t.put("apiVersion", KymaModules.API_VERSION).put("kind", KymaModules.TEMPLATE);
        ObjectNode meta = t.putObject("metadata").put("name", key.templateName()).put("namespace", key.namespace());
        ObjectNode labels = meta.putObject("labels");
        ObjectNode annotations = meta.putObject("annotations");
        if (carried != null) {
            copy(carried.path("metadata").path("labels"), labels);
            copy(carried.path("metadata").path("annotations"), annotations);
        }
        labels.put(KymaModules.MODULE_NAME_LABEL, key.module());
        labels.put(ManifestObjects.MANAGED_BY, "rekon");
        annotations.put(PublishedTemplate.DIGEST_ANNOTATION, v.digest());
        annotations.put(PublishedTemplate.COMPONENT_ANNOTATION, v.repository() + ":" + v.version());
        t.set("spec", spec);
        return t;
    }

    private static void same(ObjectNode spec, String field, String expected) throws Mismatch {
        String given = spec.path(field).asText("");
        if (!given.isEmpty() && !given.equals(expected)) {
            throw new Mismatch("carries a moduletemplate whose spec." + field + " is '" + given + "', not '" + expected
                    + "'; make the template describe the component version it is pushed with");
        }
    }

    /** The manager the component's label names, or null. */
    static JsonNode manager(ComponentVersion v) {
        for (JsonNode l : v.descriptor().path("component").path("labels")) {
            if (MANAGER_LABEL.equals(l.path("name").asText()) && l.path("value").isObject()) {
                return l.path("value").deepCopy();
            }
        }
        return null;
    }

    private static void copy(JsonNode from, ObjectNode to) {
        for (Iterator<Map.Entry<String, JsonNode>> it = from.fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> e = it.next();
            if (e.getValue().isTextual()) {
                to.put(e.getKey(), e.getValue().asText());
            }
        }
    }
}
