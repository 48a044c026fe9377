package dev.rekon.modules.publish.plan;

import java.util.Optional;

import dev.rekon.core.ObjectRef;
import dev.rekon.core.SemVer;
import dev.rekon.modules.release.KymaModules;

/**
 * One component version to publish: {@code repository} is {@code <host>/<path>/component-descriptors/<component>}
 * and {@code version} its tag. The module is the component name's last path segment, as Kyma names modules
 * ({@code kyma-project.io/module/kpack} is {@code kpack}); its ModuleTemplate is {@code <module>-<version>}.
 * {@code pushed}: the key comes from a push (a webhook or the publish event), so its version is most likely new
 * and is read from the registry at once, beside the template's read, not after it. {@code digest}: the manifest a
 * registry's push notification names (null otherwise); the version is read by it, since a registry may notify
 * before it links the tag (distribution/distribution#2625) and the tag may have moved since.
 */
public record PublishKey(String repository, String version, String namespace, boolean pushed, String digest) {

    /** A key found by a resync or asked for in report mode: its template is read first. */
    public PublishKey(String repository, String version, String namespace) {
        this(repository, version, namespace, false, null);
    }

    public static final String COMPONENT_DESCRIPTORS = "/component-descriptors/";
    /** Kyma's ModuleTemplate CRD: {@code spec.moduleName} and {@code spec.version}. */
    private static final String MODULE_NAME = "[a-z]{3,}(-[a-z]{3,})*";
    private static final String VERSION = "(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)(-[a-z-][0-9a-z-]*)?";

    /** A reason and a message: why a key cannot be published, before anything is read. */
    public record Refusal(String reason, String message) {
    }

    /** The component's name, or null when the repository is not in OCM's layout. */
    public String component() {
        int at = repository.indexOf(COMPONENT_DESCRIPTORS);
        String c = at < 0 ? "" : repository.substring(at + COMPONENT_DESCRIPTORS.length());
        return c.isBlank() ? null : c;
    }

    /** The module the component maps to, or null when it maps to none. */
    public String module() {
        String c = component();
        if (c == null) {
            return null;
        }
        String last = c.substring(c.lastIndexOf('/') + 1);
        return last.matches(MODULE_NAME) && last.length() <= 64 ? last : null;
    }

    public String templateName() {
        return module() + "-" + version;
    }

    public ObjectRef templateRef() {
        return new ObjectRef(KymaModules.API_VERSION, KymaModules.TEMPLATE, namespace, templateName());
    }

    public ObjectRef releaseMetaRef() {
        return new ObjectRef(KymaModules.API_VERSION, KymaModules.RELEASE_META, namespace, module());
    }

    /** What is wrong with the key itself: no component, no module, no semantic version. Pure. */
    public Optional<Refusal> refusal() {
        String what = repository + ":" + version;
        if (component() == null) {
            return Optional.of(new Refusal("NotAComponent", what + " is not an OCM component version: its repository"
                    + " must be <base>" + COMPONENT_DESCRIPTORS + "<component name>"));
        }
        if (module() == null) {
            return Optional.of(new Refusal("NoModuleName", "component " + component() + " maps to no module: the last"
                    + " segment of its name must be a Kyma module name: words of at least three lower-case letters joined"
                    + " by '-' (as in kyma-project.io/module/kpack)"));
        }
        if (version == null || !version.matches(VERSION) || version.length() > 32 || SemVer.tryParse(version).isEmpty()) {
            return Optional.of(new Refusal("VersionNotSemver", what + " has version '" + version + "', which is not"
                    + " a module version: MAJOR.MINOR.PATCH with an optional lower-case -pre-release, as Kyma's"
                    + " ModuleTemplate requires; tag the component version so"));
        }
        return Optional.empty();
    }

    @Override
    public String toString() {
        return repository + ":" + version;
    }
}
