package dev.rekon.modules.manifest;

import dev.rekon.modules.release.ModuleTemplateView;

/**
 * Reads the whole manifest of the module version a Kyma ModuleTemplate describes: from the OCM descriptor's
 * {@code raw-manifest} resource ({@code localBlob} in the registry's {@code component-descriptors/<component>}
 * repository, or an {@code ociArtifact}/{@code ociImage} whose layer is the manifest), or from a community
 * module's {@code spec.resources[rawManifest].link}. A blob must match its declared digest; with signatures
 * required, the descriptor's signature must verify and record that digest.
 * <p>
 * Failures are sorted here: {@link dev.rekon.core.RefusedException} for a release that can never apply as it is
 * (tampered or unsigned blob, no raw-manifest, not YAML), naming the ModuleTemplate; a
 * {@link dev.rekon.core.TransientFailureException} for a registry or server that may answer later.
 */
public interface ManifestSource {

    ModuleManifest fetch(ModuleTemplateView moduleTemplate);

    /**
     * The digest the template's manifest is named by, when it is (a local blob, an artifact pinned to a digest):
     * its content can then never change, and what was read of it may be kept. Empty for a link or a tag, whose
     * content may change, and for a template whose descriptor does not parse.
     */
    default java.util.Optional<String> pinned(ModuleTemplateView moduleTemplate) {
        return java.util.Optional.empty();
    }
}
