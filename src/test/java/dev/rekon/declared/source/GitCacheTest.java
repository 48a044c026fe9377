package dev.rekon.declared.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The git cache's bookkeeping on a real folder: what a fetch costs it, and eviction while folders are read. */
class GitCacheTest {

    private static final int KIB = 1024;

    @TempDir
    Path dir;

    @Test
    void aFetchMeasuresOnlyItsOwnFolder() throws IOException {
        GitCache cache = new GitCache(dir, 1L << 30);
        List<Path> repos = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            repos.add(repo(cache, "https://git.example/r" + i, 1));
        }
        cache.afterFetch(repos.get(0));
        assertEquals(201, cache.measured(), "the first fetch measures the cache it finds, then its own folder");
        for (Path repo : repos) {
            cache.afterFetch(repo);
        }
        assertEquals(401, cache.measured(), "200 fetches measure their 200 folders, not the whole cache each time");
    }

    @Test
    void evictsTheLeastRecentlyReadUntilTheCacheFits() throws IOException {
        GitCache cache = new GitCache(dir, 3 * KIB + 512);
        List<Path> repos = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            Path repo = repo(cache, "https://git.example/r" + i, 1);
            Files.setLastModifiedTime(repo.resolve("rekon-last-used"), FileTime.fromMillis(1_000_000L * (i + 1)));
            repos.add(repo);
        }
        cache.afterFetch(repos.get(0));

        assertTrue(Files.isDirectory(repos.get(0)), "the folder just fetched into stays, however old");
        assertFalse(Files.exists(repos.get(1)), "the least recently read go first");
        assertFalse(Files.exists(repos.get(2)));
        assertTrue(Files.isDirectory(repos.get(3)));
        assertTrue(Files.isDirectory(repos.get(4)));
    }

    @Test
    void evictsWhileOtherFoldersAreRead() throws Exception {
        GitCache cache = new GitCache(dir, 300L * KIB);
        List<Path> repos = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            repos.add(repo(cache, "https://git.example/r" + i, 1));
        }
        AtomicBoolean reading = new AtomicBoolean(true);
        Thread reader = new Thread(() -> {
            ThreadLocalRandom random = ThreadLocalRandom.current();
            while (reading.get()) {
                Path marker = repos.get(random.nextInt(repos.size())).resolve("rekon-last-used");
                try {
                    Files.setLastModifiedTime(marker, FileTime.fromMillis(random.nextLong(1, 1L << 40)));
                } catch (IOException e) {
                    // evicted meanwhile
                }
            }
        });
        reader.start();
        try {
            for (int i = 0; i < 200; i++) {
                // one folder more than fits: each fetch's eviction orders the cache while the reader touches it
                Path added = repo(cache, "https://git.example/added" + i, 1);
                cache.afterFetch(added);
                assertTrue(Files.isDirectory(added));
            }
        } finally {
            reading.set(false);
            reader.join();
        }
    }

    private static Path repo(GitCache cache, String url, int kib) throws IOException {
        Path repo = cache.repoDir(url);
        Files.createDirectories(repo.resolve("objects/pack"));
        Files.write(repo.resolve("objects/pack/pack-1.pack"), new byte[kib * KIB]);
        cache.touch(repo);
        return repo;
    }
}
