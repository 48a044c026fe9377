package dev.rekon.modules.manifest;

import java.net.URI;

import dev.rekon.core.ObjectRef;
import dev.rekon.registry.RegistryImage;

/**
 * All I/O of reading a manifest: registry blobs and artifacts (with the credentials that apply to the
 * ModuleTemplate's namespace) and HTTP(S) links. Failures are sorted here: a
 * {@link dev.rekon.core.TransientFailureException} when the server may answer later (unreachable, 5xx, 429), a
 * {@link dev.rekon.core.RefusedException} naming the template otherwise.
 */
public interface ManifestFetcher {

    /** The blob {@code digest} of the repository ({@code host[:port]/path}), whose content hashes to it. */
    byte[] blob(ObjectRef template, String repository, String digest);

    /** The artifact's manifest: its digest and layers. */
    RegistryImage artifact(ObjectRef template, String imageReference);

    /** The body of an HTTP(S) GET. */
    byte[] link(ObjectRef template, URI uri);
}
