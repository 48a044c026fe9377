package dev.rekon.modules.release;

import com.fasterxml.jackson.databind.JsonNode;

import dev.rekon.core.ObjectRef;

/**
 * What Rekon reads of a Kyma ModuleTemplate ({@value KymaModules#API_VERSION}), made once from the object by
 * {@link #of(JsonNode)}: the only place that knows the template's JSON paths.
 *
 * @param ref              the template; its namespace null when the object names none
 * @param resourceVersion  the version the view was made from, or null
 * @param module           {@code spec.moduleName}, else the label {@value KymaModules#MODULE_NAME_LABEL}; null when neither
 * @param version          {@code spec.version}, else the annotation {@value KymaModules#MODULE_VERSION_ANNOTATION}; null
 *                         when neither (not necessarily a semantic version)
 * @param channel          the deprecated {@code spec.channel} of older templates, or null
 * @param intendedDowngrade the annotation {@value KymaModules#INTENDED_DOWNGRADE_ANNOTATION} is {@code "true"}
 * @param descriptor       the OCM component descriptor {@code spec.descriptor}, as
 *                         {@link dev.rekon.modules.ocm.ComponentDescriptor#parse} reads it (a missing node when none)
 * @param rawManifestLink  the {@code link} of a community module's {@code spec.resources[name: rawManifest]}: null
 *                         when there is no such resource, empty when it has no link
 * @param data             the default custom resource {@code spec.data}, or null when none
 * @param manager          the object {@code spec.manager} names ({group, version, kind, namespace, name}), whose
 *                         availability is the module's; null when none
 */
public record ModuleTemplateView(ObjectRef ref, String resourceVersion, String module, String version, String channel,
        boolean intendedDowngrade, JsonNode descriptor, String rawManifestLink, JsonNode data, ObjectRef manager) {

    /** The name of the {@code spec.resources[]} entry whose {@code link} is a community module's manifest. */
    public static final String RAW_MANIFEST_LINK = "rawManifest";

    public static ModuleTemplateView of(JsonNode template) {
        JsonNode meta = template.path("metadata");
        JsonNode spec = template.path("spec");
        String namespace = meta.path("namespace").asText("");
        String link = null;
        for (JsonNode r : spec.path("resources")) {
            if (RAW_MANIFEST_LINK.equals(r.path("name").asText())) {
                link = r.path("link").asText("");
                break;
            }
        }
        JsonNode data = spec.path("data");
        return new ModuleTemplateView(
                new ObjectRef(KymaModules.API_VERSION, KymaModules.TEMPLATE, namespace.isEmpty() ? null : namespace,
                        meta.path("name").asText()),
                meta.path("resourceVersion").asText(null),
                first(spec.path("moduleName").asText(""), meta.path("labels").path(KymaModules.MODULE_NAME_LABEL).asText("")),
                first(spec.path("version").asText(""),
                        meta.path("annotations").path(KymaModules.MODULE_VERSION_ANNOTATION).asText("")),
                first(spec.path("channel").asText(""), null),
                "true".equals(meta.path("annotations").path(KymaModules.INTENDED_DOWNGRADE_ANNOTATION).asText()),
                spec.path("descriptor"), link, data.isMissingNode() || data.isNull() ? null : data,
                manager(spec.get("manager")));
    }

    private static ObjectRef manager(JsonNode manager) {
        if (manager == null || !manager.isObject()) {
            return null;
        }
        String group = manager.path("group").asText("");
        return new ObjectRef((group.isEmpty() ? "" : group + "/") + manager.path("version").asText(),
                manager.path("kind").asText(), manager.path("namespace").asText(null), manager.path("name").asText());
    }

    public String namespace() {
        return ref.namespace();
    }

    public String name() {
        return ref.name();
    }

    /** {@code ModuleTemplate namespace/name}, as messages name it. */
    public String describe() {
        return KymaModules.TEMPLATE + " " + (namespace() == null ? "" : namespace() + "/") + name();
    }

    static String first(String a, String b) {
        return a != null && !a.isBlank() ? a : b != null && !b.isBlank() ? b : null;
    }
}
