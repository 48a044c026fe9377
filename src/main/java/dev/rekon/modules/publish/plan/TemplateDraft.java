package dev.rekon.modules.publish.plan;

import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

import dev.rekon.manifests.ManifestObjects;
import dev.rekon.modules.publish.source.ComponentVersion;
import dev.rekon.modules.release.KymaModules;

/**
 * The ModuleTemplate of a published component version, in the shape the lifecycle reads
 * ({@link dev.rekon.modules.release.ModuleTemplateView}), decided purely: its name {@code <module>-<version>}, the
 * labels and annotations of the component's own {@code moduletemplate} resource when it has one with Rekon's set
 * over them (the module, managed by Rekon, the component version and its digest), and its {@code spec}: the carried
 * one, with {@code moduleName}, {@code version} and {@code descriptor} (the component's as pushed, signatures
 * included, so the lifecycle verifies it) set, the {@code default-cr} resource as {@code data} and the manager the
 * component's label {@value #MANAGER_LABEL} names where the carried spec has none. The gateway writes it
 * ({@code PublishBodies}).
 *
 * @param labels in the order written: the carried ones first
 * @param carriedSpec the component's template's {@code spec} as it carries it, or null
 * @param data the default CR set as {@code spec.data}, or null (none, or the carried spec has its own)
 * @param manager the manager set as {@code spec.manager}, or null (none, or the carried spec has its own)
 */
public record TemplateDraft(String namespace, String name, String module, String version, Map<String, String> labels,
        Map<String, String> annotations, JsonNode carriedSpec, JsonNode descriptor, JsonNode data, JsonNode manager) {

    /** A component label whose value is the manager object: {@code {group, version, kind, name, namespace}}. */
    public static final String MANAGER_LABEL = "rekon.dev/module-manager";

    /** The component's template does not describe the version pushed. */
    public static final class Mismatch extends Exception {
        Mismatch(String message) {
            super(message, null, false, false);
        }
    }

    public TemplateDraft {
        labels = Collections.unmodifiableMap(new LinkedHashMap<>(labels));
        annotations = Collections.unmodifiableMap(new LinkedHashMap<>(annotations));
    }

    public static TemplateDraft of(ComponentVersion v, PublishKey key) throws Mismatch {
        JsonNode carried = v.moduleTemplate();
        JsonNode spec = carried == null || !carried.path("spec").isObject() ? null : carried.path("spec");
        same(spec, "moduleName", key.module());
        same(spec, "version", key.version());
        Map<String, String> labels = new LinkedHashMap<>();
        Map<String, String> annotations = new LinkedHashMap<>();
        if (carried != null) {
            copy(carried.path("metadata").path("labels"), labels);
            copy(carried.path("metadata").path("annotations"), annotations);
        }
        labels.put(KymaModules.MODULE_NAME_LABEL, key.module());
        labels.put(ManifestObjects.MANAGED_BY, "rekon");
        annotations.put(PublishedTemplate.DIGEST_ANNOTATION, v.digest());
        annotations.put(PublishedTemplate.COMPONENT_ANNOTATION, v.repository() + ":" + v.version());
        return new TemplateDraft(key.namespace(), key.templateName(), key.module(), key.version(), labels, annotations,
                spec, v.descriptor(), has(spec, "data") ? null : v.defaultCr(), has(spec, "manager") ? null : manager(v));
    }

    private static boolean has(JsonNode spec, String field) {
        return spec != null && spec.has(field);
    }

    private static void same(JsonNode spec, String field, String expected) throws Mismatch {
        String given = spec == null ? "" : spec.path(field).asText("");
        if (!given.isEmpty() && !given.equals(expected)) {
            throw new Mismatch("carries a moduletemplate whose spec." + field + " is '" + given + "', not '" + expected
                    + "'; make the template describe the component version it is pushed with");
        }
    }

    /** The manager the component's label names, or null. */
    static JsonNode manager(ComponentVersion v) {
        for (JsonNode l : v.descriptor().path("component").path("labels")) {
            if (MANAGER_LABEL.equals(l.path("name").asText()) && l.path("value").isObject()) {
                return l.path("value");
            }
        }
        return null;
    }

    private static void copy(JsonNode from, Map<String, String> to) {
        for (Iterator<Map.Entry<String, JsonNode>> it = from.fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> e = it.next();
            if (e.getValue().isTextual()) {
                to.put(e.getKey(), e.getValue().asText());
            }
        }
    }
}
