package dev.rekon.buildpacks.view;

import dev.rekon.registry.RegistryImage;

/** What reading a buildpackage image gave: the image, or a permanent reason it cannot be read. */
public sealed interface ImageRead {

    record Found(RegistryImage image) implements ImageRead {
    }

    /** Permanent: not found, access denied, not an image, bad reference. Transient failures never get here. */
    record Unreadable(String reason, String message) implements ImageRead {
    }
}
