package dev.rekon.modules.manifest;

import java.net.URI;
import java.util.Locale;
import java.util.Optional;

import dev.rekon.modules.ocm.ComponentDescriptor.Digest;
import dev.rekon.modules.ocm.ComponentDescriptor.Resource;
import dev.rekon.modules.ocm.ComponentDescriptor;
import dev.rekon.modules.release.ModuleTemplateView;

/**
 * Where a ModuleTemplate's manifest is read from, decided from the template alone (pure): the descriptor's
 * {@code raw-manifest} resource when it has one, else the community {@code spec.resources[rawManifest].link}.
 * A template with neither, or with an access Rekon cannot read, is refused with what to fix.
 */
public sealed interface ManifestOrigin {

    String LINK_RESOURCE = ModuleTemplateView.RAW_MANIFEST_LINK;
    String SHA256_DIGEST = "sha256:[0-9a-f]{64}";

    /** A local blob of the component version's OCI repository, named by its digest. */
    record LocalBlob(String repository, String digest, String mediaType, Digest signed) implements ManifestOrigin {
    }

    /** An OCI artifact whose single layer is the manifest. */
    record OciArtifact(String imageReference, Digest signed) implements ManifestOrigin {
    }

    /** A community module's plain URL: no digest, no signature. */
    record Link(URI uri) implements ManifestOrigin {
    }

    /** A template Rekon cannot read a manifest from, and why. */
    record Unreadable(String message) implements ManifestOrigin {
    }

    /** @param descriptor the parsed {@code spec.descriptor}, or null when it is not an OCM component */
    static ManifestOrigin of(ModuleTemplateView template, ComponentDescriptor descriptor) {
        Optional<Resource> raw = descriptor == null ? Optional.empty()
                : descriptor.resource(ComponentDescriptor.RAW_MANIFEST);
        if (raw.isPresent()) {
            return fromResource(raw.get(), descriptor);
        }
        if (template.rawManifestLink() != null) {
            return link(template.rawManifestLink());
        }
        return new Unreadable("has no manifest: add a resource named '" + ComponentDescriptor.RAW_MANIFEST
                + "' to the OCM descriptor (spec.descriptor), or spec.resources[{name: " + LINK_RESOURCE + ", link}]");
    }

    private static ManifestOrigin fromResource(Resource r, ComponentDescriptor descriptor) {
        String access = r.accessType();
        // OCM access types may carry their version and come in either case (localBlob/v1, OCIImage/v1).
        String kind = access.replaceFirst("/v1$", "").toLowerCase(Locale.ROOT);
        if (kind.equals("localblob")) {
            String digest = r.access().path("localReference").asText("");
            if (!digest.matches(SHA256_DIGEST)) {
                return new Unreadable("has a raw-manifest localBlob whose localReference '" + digest
                        + "' is not a sha256 digest; publish the component with OCM's OCI repository layout");
            }
            return descriptor.repository()
                    .<ManifestOrigin>map(repo -> new LocalBlob(repo, digest,
                            r.access().path("mediaType").asText(""), r.digest()))
                    .orElseGet(() -> new Unreadable("has a raw-manifest localBlob but its descriptor names no"
                            + " component.repositoryContexts[].baseUrl to read it from"));
        }
        if (kind.equals("ociartifact") || kind.equals("ociimage")) {
            String ref = r.access().path("imageReference").asText("");
            return ref.isBlank() ? new Unreadable("has a raw-manifest " + access + " without access.imageReference")
                    : new OciArtifact(ref, r.digest());
        }
        return new Unreadable("has a raw-manifest resource with access type '" + access
                + "'; publish it as a localBlob, ociArtifact or ociImage");
    }

    private static ManifestOrigin link(String text) {
        try {
            URI uri = new URI(text);
            if (("https".equals(uri.getScheme()) || "http".equals(uri.getScheme())) && uri.getHost() != null) {
                return new Link(uri);
            }
        } catch (java.net.URISyntaxException e) {
            // refused below, naming the text
        }
        return new Unreadable("has spec.resources[" + LINK_RESOURCE + "].link '" + text
                + "', which is not an http(s) URL");
    }
}
