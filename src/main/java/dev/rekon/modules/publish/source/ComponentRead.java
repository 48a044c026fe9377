package dev.rekon.modules.publish.source;

/**
 * What reading a component version gave: the version, whole and checked, or why it is refused (bad input: the
 * sender must fix it, nothing is written), or only that its tag still points at the digest already published
 * (nothing more read). Registry outages are not answers but {@link dev.rekon.core.TransientFailureException}s.
 */
public sealed interface ComponentRead {

    record Found(ComponentVersion version) implements ComponentRead {
    }

    /** @param reason CamelCase, as replies carry it: {@code DescriptorInvalid}, {@code BlobMissing}, ... */
    record Refused(String reason, String message) implements ComponentRead {
    }

    /**
     * The tag's manifest digest equals the one its ModuleTemplate records, and publishing would write nothing, so
     * neither descriptor nor blobs were read: a digest names its content, which was checked when it was published.
     */
    record Unchanged(String digest) implements ComponentRead {
    }
}
