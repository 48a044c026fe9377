package dev.rekon.modules.publish.source;

/**
 * What reading a component version gave: the version, whole and checked, or why it is refused (bad input: the
 * sender must fix it, nothing is written). Registry outages are not answers but
 * {@link dev.rekon.core.TransientFailureException}s.
 */
public sealed interface ComponentRead {

    record Found(ComponentVersion version) implements ComponentRead {
    }

    /** @param reason CamelCase, as replies carry it: {@code DescriptorInvalid}, {@code BlobMissing}, ... */
    record Refused(String reason, String message) implements ComponentRead {
    }
}
