package dev.rekon.modules.release;

import dev.rekon.core.InvalidEventException;
import dev.rekon.core.SemVer;
import dev.rekon.modules.ocm.ComponentDescriptor;
import dev.rekon.modules.ocm.SignatureVerifier;

/**
 * Kyma's module objects ({@code operator.kyma-project.io/v1beta2} ModuleTemplate and ModuleReleaseMeta): their
 * names, and the release a template ({@link ModuleTemplateView}) makes on a channel. What an object says is read
 * once, into its view ({@link ModuleTemplateView#of}, {@link ReleaseMetaView#of}).
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

    /** @throws InvalidEventException when the template lacks a module name, a semver version or a descriptor */
    public static ModuleRelease release(ModuleTemplateView template, String channel, SignatureVerifier verifier) {
        String where = template.describe();
        String module = template.module();
        if (module == null) {
            throw new InvalidEventException(where + " names no module: set spec.moduleName or label "
                    + MODULE_NAME_LABEL);
        }
        String version = template.version();
        SemVer semver = SemVer.tryParse(version).orElseThrow(() -> new InvalidEventException(where
                + " has no semantic version in spec.version or annotation " + MODULE_VERSION_ANNOTATION
                + " ('" + version + "')"));
        ComponentDescriptor cd = ComponentDescriptor.parse(template.descriptor(), where);
        return new ModuleRelease(module, semver, channel, false, cd.images(), template.intendedDowngrade(),
                verifier.verify(cd), where);
    }
}
