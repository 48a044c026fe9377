package dev.rekon.buildpacks.view;

/** What one manifest HEAD of a buildpackage image gave: the digest its reference points at, or a permanent reason. */
public sealed interface ImageHead {

    record Digest(String digest) implements ImageHead {
    }

    /** Permanent: not found, access denied, bad reference, no ServiceAccount. Transient failures never get here. */
    record Unreadable(String reason, String message) implements ImageHead {
    }
}
