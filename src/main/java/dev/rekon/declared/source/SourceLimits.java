package dev.rekon.declared.source;

/**
 * How much one revision may hold before it is refused rather than read: manifest files, bytes of one file,
 * bytes of all of them, and objects (List items counted one by one). Bounds the memory a repository can make
 * Rekon spend.
 */
public record SourceLimits(int maxFiles, long maxFileBytes, long maxTotalBytes, int maxObjects) {

    public static final SourceLimits DEFAULTS = new SourceLimits(5000, 4L << 20, 64L << 20, 10_000);

    public SourceLimits {
        if (maxFiles < 1 || maxFileBytes < 1 || maxTotalBytes < 1 || maxObjects < 1) {
            throw new IllegalArgumentException("source limits must be positive: " + maxFiles + ", " + maxFileBytes
                    + ", " + maxTotalBytes + ", " + maxObjects);
        }
    }
}
