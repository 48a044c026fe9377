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
    private final ConcurrentHashMap<Path, Long> sizes = new ConcurrentHashMap<>();
    private final AtomicLong measured = new AtomicLong();
    private volatile boolean scanned;

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
     * cache is brought back within its size. Only this folder is measured again: the others' sizes are known from
     * their own fetches (a pass of 1,000 repositories would otherwise walk the whole cache 1,000 times).
     */
    void afterFetch(Path repoDir) {
        known();
        try (Stream<Path> packs = Files.list(repoDir.resolve("objects/pack"))) {
            if (packs.filter(p -> p.toString().endsWith(".pack")).count() > MAX_PACKS) {
                drop(repoDir);
            }
        } catch (IOException e) {
            LOG.debugf("cannot count the packs of %s: %s", repoDir, e.getMessage());
        }
        if (Files.isDirectory(repoDir)) {
            sizes.put(repoDir, measure(repoDir));
        }
        evict(repoDir);
    }

    /** A folder and its size as the cache was last seen, ordered by when it was last read then. */
    private record Held(Path repo, long bytes, FileTime used) {
    }

    /**
     * Removes the least recently read folders until the cache fits, keeping {@code keep} and folders in use. The
     * times are read once, before ordering: a folder read meanwhile keeps its place of when eviction began.
     */
    void evict(Path keep) {
        Map<Path, Long> known = known();
        long total = known.values().stream().mapToLong(Long::longValue).sum();
        if (total <= maxBytes) {
            return;
        }
        List<Held> held = new ArrayList<>(known.size());
        known.forEach((repo, bytes) -> held.add(new Held(repo, bytes, lastUsed(repo))));
        held.sort(Comparator.comparing(Held::used).reversed());
        long kept = known.getOrDefault(keep, 0L);
        boolean full = false;
        for (Held h : held) {
            if (h.repo().equals(keep)) {
                continue;
            }
            full = full || kept + h.bytes() > maxBytes;
            if (!full) {
                kept += h.bytes();
                continue;
            }
            ReentrantLock lock = lock(h.repo());
            if (lock.tryLock()) {
                try {
                    drop(h.repo());
                    LOG.debugf("removed %s from the git cache, which holds more than %d bytes", h.repo(), maxBytes);
                } finally {
                    lock.unlock();
                }
            } else {
                kept += h.bytes();
            }
        }
    }

    /** Removes a folder of the cache (its lock held) and forgets its size. */
    void drop(Path repoDir) {
        delete(repoDir);
        sizes.remove(repoDir);
    }

    /** How many folders have been measured (walked file by file) since this cache was made. */
    long measured() {
        return measured.get();
    }

    /** The sizes of the folders in the cache: the folder listed and each measured once, when first needed. */
    private Map<Path, Long> known() {
        if (!scanned) {
            synchronized (this) {
                if (!scanned) {
                    try (Stream<Path> list = Files.list(dir)) {
                        list.filter(Files::isDirectory).forEach(repo -> sizes.putIfAbsent(repo, measure(repo)));
                    } catch (IOException e) {
                        LOG.debugf("cannot list the git cache %s: %s", dir, e.getMessage());
                    }
                    scanned = true;
                }
            }
        }
        return sizes;
    }

    private long measure(Path repo) {
        measured.incrementAndGet();
        return size(repo);
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
