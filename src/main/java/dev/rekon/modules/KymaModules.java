package dev.rekon.modules;

import java.util.LinkedHashMap;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

import dev.rekon.core.InvalidEventException;
import dev.rekon.core.SemVer;
import dev.rekon.modules.ocm.ComponentDescriptor;
import dev.rekon.modules.ocm.SignatureVerifier;

/**
 * Reads Kyma's module objects ({@code operator.kyma-project.io/v1beta2} ModuleTemplate and ModuleReleaseMeta)
 * into releases: which module and version a template describes, which version each channel offers, and
 * the release a template makes on a channel.
 */
public final class KymaModules {

    public static final String API_VERSION = "operator.kyma-project.io/v1beta2";
    public static final String TEMPLATE = "ModuleTemplate";
    public static final String RELEASE_META = "ModuleReleaseMeta";
    public static final String MODULE_NAME_LABEL = "operator.kyma-project.io/module-name";
    public static final String MODULE_VERSION_ANNOTATION = "operator.kyma-project.io/module-version";
    /** Set to "true" on a ModuleTemplate to declare its version an intended downgrade. */
    public static final String INTENDED_DOWNGRADE_ANNOTATION = "rekon.dev/intended-downgrade";

    private KymaModules() {
    }

    public static String templateModule(JsonNode template) {
        return first(template.path("spec").path("moduleName").asText(""),
                template.path("metadata").path("labels").path(MODULE_NAME_LABEL).asText(""));
    }

    public static String templateVersion(JsonNode template) {
        return first(template.path("spec").path("version").asText(""),
                template.path("metadata").path("annotations").path(MODULE_VERSION_ANNOTATION).asText(""));
    }

    /** The deprecated {@code spec.channel} of older templates, or null. */
    public static String templateChannel(JsonNode template) {
        return first(template.path("spec").path("channel").asText(""), null);
    }

    public static String releaseMetaModule(JsonNode meta) {
        return first(meta.path("spec").path("moduleName").asText(""), null);
    }

    /** Channel name to version, as {@code spec.channels[]} lists them. */
    public static Map<String, String> channels(JsonNode meta) {
        Map<String, String> channels = new LinkedHashMap<>();
        for (JsonNode c : meta.path("spec").path("channels")) {
            channels.put(c.path("channel").asText(), c.path("version").asText());
        }
        return channels;
    }

    /** @throws InvalidEventException when the template lacks a module name, a semver version or a descriptor */
    public static ModuleRelease release(JsonNode template, String channel, SignatureVerifier verifier) {
        String where = TEMPLATE + " " + ref(template);
        String module = templateModule(template);
        if (module == null) {
            throw new InvalidEventException(where + " names no module: set spec.moduleName or label "
                    + MODULE_NAME_LABEL);
        }
        String version = templateVersion(template);
        SemVer semver = SemVer.tryParse(version).orElseThrow(() -> new InvalidEventException(where
                + " has no semantic version in spec.version or annotation " + MODULE_VERSION_ANNOTATION
                + " ('" + version + "')"));
        ComponentDescriptor cd = ComponentDescriptor.parse(template.path("spec").path("descriptor"), where);
        boolean downgrade = "true".equals(template.path("metadata").path("annotations")
                .path(INTENDED_DOWNGRADE_ANNOTATION).asText());
        return new ModuleRelease(module, semver, channel, false, cd.images(), downgrade, verifier.verify(cd), where);
    }

    static String ref(JsonNode object) {
        JsonNode m = object.path("metadata");
        String ns = m.path("namespace").asText("");
        return (ns.isEmpty() ? "" : ns + "/") + m.path("name").asText();
    }

    private static String first(String a, String b) {
        return a != null && !a.isBlank() ? a : b != null && !b.isBlank() ? b : null;
    }
}
