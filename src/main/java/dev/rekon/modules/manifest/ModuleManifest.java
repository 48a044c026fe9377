package dev.rekon.modules.manifest;

import java.util.List;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * One released version of a module as a whole: every object its raw-manifest declares (in the order of the
 * stream), the default custom resource from the ModuleTemplate's {@code spec.data}, and where it came from.
 *
 * @param module     the module's name
 * @param version    the release's version, as the ModuleTemplate states it
 * @param objects    the manifest's objects, each a full Kubernetes object (apiVersion, kind, metadata.name)
 * @param defaultCr  the module's default custom resource ({@code spec.data}), or null when it has none
 * @param digest     the manifest blob's digest ({@code sha256:<hex>}), checked against what its source declared
 * @param provenance how far the manifest is covered by a verified signature
 * @param source     where it was read from, for messages (e.g. "localBlob sha256:… of component kyma.project.io/kpack")
 */
public record ModuleManifest(String module, String version, List<ObjectNode> objects, ObjectNode defaultCr,
        String digest, Provenance provenance, String source) {

    public ModuleManifest {
        objects = List.copyOf(objects);
    }

    /** How much of the manifest a verified signature covers. */
    public enum Provenance {
        /** The signed component descriptor records this manifest's digest, and its signature verified. */
        SIGNED,
        /** Read from an OCM descriptor whose signature was not required (and not, or not successfully, checked). */
        UNSIGNED,
        /** Read from a {@code spec.resources[rawManifest].link}: no signature can cover it. */
        LINK
    }
}
