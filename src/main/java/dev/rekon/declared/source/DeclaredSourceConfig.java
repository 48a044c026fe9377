package dev.rekon.declared.source;

import java.time.Duration;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Where fetched repositories are cached, how long git may take, and how much one revision may hold. */
@ConfigMapping(prefix = "rekon.declared")
public interface DeclaredSourceConfig {

    /** The on-disk cache of shallow bare repositories, one folder per repository URL. */
    @WithDefault("${java.io.tmpdir}/rekon-git")
    String cacheDir();

    /** Bytes the cache may hold; beyond that the least recently read repositories are removed. */
    @WithDefault("536870912")
    long cacheMaxBytes();

    /** Connect and read timeout of one git request. */
    @WithDefault("30s")
    Duration timeout();

    @WithDefault("5000")
    int maxFiles();

    @WithDefault("4194304")
    long maxFileBytes();

    @WithDefault("67108864")
    long maxTotalBytes();

    @WithDefault("10000")
    int maxObjects();

    /**
     * Bytes of manifest files one revision holds whole in memory; the objects of the files after them are planned
     * from their identity and read again from the git cache where they are compared or applied, so that a large
     * revision costs bounded memory.
     */
    @WithDefault("8388608")
    long heldBytes();

    default SourceLimits limits() {
        return new SourceLimits(maxFiles(), maxFileBytes(), maxTotalBytes(), maxObjects());
    }
}
