package dev.rekon.declared.source;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.Stream;

import org.jboss.logging.Logger;

/**
 * The on-disk cache of fetched repositories: which folder holds a URL's bare repository, who may use it (one
 * reader per URL at a time), and which folders go when the cache passes its size (least recently read first).
 */
final class GitCache {

    private static final Logger LOG = Logger.getLogger(GitCache.class);
    private static final String LAST_USED = "rekon-last-used";
    static final int MAX_PACKS = 20;

    private final Path dir;
    private final long maxBytes;
    private final ConcurrentHashMap<String, ReentrantLock> locks = new ConcurrentHashMap<>();
    /**
     * Each folder's size as last walked (all of them once, then the one fetched into after each fetch), so that a
     * fetch into a cache within its size walks one folder, not every folder: a pass over 100 repositories walked
     * the whole cache 100 times, most of the pass's file system calls. Null until the first walk of all.
     */
    private Map<Path, Long> sizes;
    private final AtomicLong walks = new AtomicLong();

    GitCache(Path dir, long maxBytes) {
        this.dir = dir;
        this.maxBytes = maxBytes;
    }

    /** The folder of {@code url}'s bare repository (not created here). */
    Path repoDir(String url) {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(url.getBytes(StandardCharsets.UTF_8));
            return dir.resolve(HexFormat.of().formatHex(hash, 0, 16) + ".git");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The lock that serialises every use of one repository folder: DeclaredStates of different keys share a folder
     * on disk, so this guards the files, not who works a key (that is the loop's work queue).
     */
    ReentrantLock lock(Path repoDir) {
        return locks.computeIfAbsent(repoDir.getFileName().toString(), k -> new ReentrantLock());
    }

    /** Marks the folder as read now, for eviction order. */
    void touch(Path repoDir) {
        try {
            Path marker = repoDir.resolve(LAST_USED);
            if (!Files.exists(marker)) {
                Files.createFile(marker);
            }
            Files.setLastModifiedTime(marker, FileTime.fromMillis(System.currentTimeMillis()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * After a fetch into {@code repoDir} (its lock held, its repository closed): a repository fetched into many
     * times is removed, so that the next read makes one fresh shallow fetch instead of piling up packs; then the
     * cache is brought back within its size.
     */
    void afterFetch(Path repoDir) {
        try (Stream<Path> packs = Files.list(repoDir.resolve("objects/pack"))) {
            if (packs.filter(p -> p.toString().endsWith(".pack")).count() > MAX_PACKS) {
                delete(repoDir);
            }
        } catch (IOException e) {
            LOG.debugf("cannot count the packs of %s: %s", repoDir, e.getMessage());
        }
        if (withinSize(repoDir)) {
            return;
        }
        evict(repoDir);
    }

    /**
     * Whether the folders as last walked, {@code fetched} walked again now, fit the cache's size. A folder deleted
     * since still counts (the whole cache is then walked again by {@link #evict}), so this never answers true for
     * a cache beyond its size, but for the refs a read without a fetch writes.
     */
    private synchronized boolean withinSize(Path fetched) {
        if (sizes == null) {
            return false;
        }
        sizes.put(fetched, walk(fetched));
        return sizes.values().stream().mapToLong(Long::longValue).sum() <= maxBytes;
    }

    /** How many folders were walked to find their size: what keeping the cache to its size cost. */
    long walks() {
        return walks.get();
    }

    /** Removes the least recently read folders until the cache fits, keeping {@code keep} and folders in use. */
    void evict(Path keep) {
        Map<Path, Long> walked = new HashMap<>();
        List<Path> repos;
        try (Stream<Path> list = Files.list(dir)) {
            repos = new ArrayList<>(list.filter(Files::isDirectory).toList());
        } catch (IOException e) {
            LOG.warnf("cannot list the git cache %s: %s", dir, e.getMessage());
            return;
        }
        repos.sort(Comparator.comparing(GitCache::lastUsed).reversed());
        long total = 0;
        for (Path repo : repos) {
            long size = walk(repo);
            walked.put(repo, size);
            total += size;
            if (total <= maxBytes || repo.equals(keep)) {
                continue;
            }
            ReentrantLock lock = lock(repo);
            if (lock.tryLock()) {
                try {
                    delete(repo);
                    long left = walk(repo);
                    total -= size - left;
                    walked.put(repo, left);
                    LOG.debugf("removed %s from the git cache, which holds more than %d bytes", repo, maxBytes);
                } finally {
                    lock.unlock();
                }
            }
        }
        synchronized (this) {
            // A folder fetched into while this walk ran, after the listing, keeps the size its fetch found.
            if (sizes != null) {
                sizes.forEach((repo, size) -> {
                    if (!walked.containsKey(repo) && Files.isDirectory(repo)) {
                        walked.put(repo, size);
                    }
                });
            }
            sizes = walked;
        }
    }

    private long walk(Path folder) {
        walks.incrementAndGet();
        return size(folder);
    }

    /** Deletes a folder and everything in it, leaving what could not be deleted. */
    static void delete(Path folder) {
        if (!Files.exists(folder)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(folder)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    LOG.debugf("cannot delete %s: %s", p, e.getMessage());
                }
            });
        } catch (IOException e) {
            LOG.warnf("cannot delete %s: %s", folder, e.getMessage());
        }
    }

    private static FileTime lastUsed(Path repo) {
        try {
            Path marker = repo.resolve(LAST_USED);
            return Files.getLastModifiedTime(Files.exists(marker) ? marker : repo);
        } catch (IOException e) {
            return FileTime.fromMillis(0);
        }
    }

    static long size(Path folder) {
        if (!Files.exists(folder)) {
            return 0;
        }
        try (Stream<Path> walk = Files.walk(folder)) {
            return walk.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
        } catch (IOException | UncheckedIOException e) {
            return 0;
        }
    }
}
