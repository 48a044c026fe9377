package dev.rekon.declared.source;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.rekon.core.RefusedException;
import dev.rekon.core.TransientFailureException;
import dev.rekon.testing.GitWorkdir;
import dev.rekon.testing.LocalGitServer;

/** JGitSource against a real git http-backend on loopback. */
class JGitSourceTest {

    private static final String CM = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: %s\n";
    private static final GitCredentials ALICE = new GitCredentials("alice", "s3cret");

    @TempDir
    Path dir;

    LocalGitServer server;
    JGitSource source;

    @BeforeEach
    void start() {
        server = LocalGitServer.start(dir.resolve("repos"), "alice", "s3cret");
        server.createRepo("config");
        source = new JGitSource(dir.resolve("cache"), 64L << 20, Duration.ofSeconds(10), SourceLimits.DEFAULTS);
    }

    @AfterEach
    void stop() {
        server.stop();
    }

    @Test
    void tipOfBranchOrEmpty() {
        GitWorkdir work = server.clone("config");
        String main = work.write("a.yaml", CM.formatted("a")).commitAndPush("first");
        String feature = work.branch("feature").write("b.yaml", CM.formatted("b")).commitAndPush("second");

        assertEquals(Optional.of(main), source.readTip(remote(null), "").map(Revision::commit));
        assertEquals(Optional.of(feature), source.readTip(remote("feature"), "").map(Revision::commit));
        assertEquals(Optional.empty(), source.readTip(remote("absent"), ""));
        assertEquals(2, source.fetches(), "a branch that does not exist is listed, not fetched");
    }

    @Test
    void readsPathAndServesTheSameCommitFromCache() {
        GitWorkdir work = server.clone("config");
        work.write("README.md", "# config").write("root.yaml", CM.formatted("root"))
                .write("apps/prod/b.yaml", CM.formatted("b") + "---\n" + CM.formatted("c"))
                .write("apps/prod/a/x.json", "{\"apiVersion\":\"v1\",\"kind\":\"Secret\",\"metadata\":{\"name\":\"x\"}}")
                .write("apps/dev/d.yaml", CM.formatted("d"));
        String commit = work.commitAndPush("layout");

        Revision prod = source.readTip(remote(null), "apps/prod/").orElseThrow();
        assertEquals(commit, prod.commit());
        assertEquals(List.of("apps/prod/a/x.json:1", "apps/prod/b.yaml:1", "apps/prod/b.yaml:6"),
                prod.documents().stream().map(DeclaredDocument::where).toList());
        assertEquals(1, source.fetches());

        Revision root = source.readTip(remote(null), ".").orElseThrow();
        assertEquals(5, root.documents().size());
        assertEquals(1, source.fetches(), "a commit in the cache is read without a fetch");
        assertEquals(prod, source.readTip(remote(null), "apps/prod").orElseThrow());
        assertEquals(1, source.fetches());
    }

    @Test
    void aResolvedTipIsReadByCommitWithoutTheNetwork() {
        GitWorkdir work = server.clone("config");
        String first = work.write("apps/a.yaml", CM.formatted("a")).commitAndPush("first");

        assertEquals(Optional.of(first), source.resolveTip(remote(null)));
        assertEquals(1, source.listings());
        assertEquals(1, source.fetches());
        work.write("apps/a.yaml", CM.formatted("a2")).commitAndPush("second");
        int before = server.requests().size();
        Revision read = source.read(remote(null), first, "apps");
        assertEquals(List.of("apps/a.yaml:1"), read.documents().stream().map(DeclaredDocument::where).toList());
        assertEquals(read, source.read(remote(null), first, "apps"), "the commit resolved, not the branch's tip now");
        assertEquals(before, server.requests().size(), "read from the cache alone");
        assertEquals(Optional.empty(), source.resolveTip(remote("absent")));
        assertEquals(2, source.listings());

        assertThrows(TransientFailureException.class, () -> source.read(remote(null),
                "0123456789012345678901234567890123456789", "apps"), "a commit the cache does not hold");
        assertThrows(RevisionRefusedException.class, () -> source.read(remote(null), first, "nowhere"));
    }

    @Test
    void tipAndItsObjectsOverOneConnection() {
        GitWorkdir work = server.clone("config");
        String first = work.write("a.yaml", CM.formatted("a")).commitAndPush("first");
        int before = server.requests().size();

        Revision read = source.readTip(remote(null), "").orElseThrow();
        assertEquals(first, read.commit());
        assertEquals(List.of("a.yaml:1"), read.documents().stream().map(DeclaredDocument::where).toList());
        assertEquals(1, source.fetches());
        List<String> fetch = requestsSince(before, 2);
        assertEquals(List.of("GET", "POST"), fetch.stream().map(r -> r.split(" ")[0]).toList(),
                "one advertisement that lists the branch, its tip fetched in one request; credentials sent at once: "
                        + fetch);

        before = server.requests().size();
        assertEquals(read, source.readTip(remote(null), "").orElseThrow());
        assertEquals(1, source.fetches(), "a tip in the cache is listed, not fetched");
        assertEquals(1, requestsSince(before, 1).size(), "an unchanged branch costs one advertisement");

        String moved = work.write("a.yaml", CM.formatted("a1")).commitAndPush("moved");
        before = server.requests().size();
        assertEquals(moved, source.readTip(remote(null), "").orElseThrow().commit());
        assertEquals(List.of("GET", "POST"), requestsSince(before, 2).stream().map(r -> r.split(" ")[0]).toList(),
                "a branch moved on a cached one: its new tip fetched in one request too");

        String second = work.write("a.yaml", CM.formatted("a2")).commitAndPush("second");
        Revision next = source.readTip(remote(null), "").orElseThrow();
        assertEquals(second, next.commit());
        assertEquals("a2", next.documents().get(0).object().at("/metadata/name").asText());
        assertEquals(3, source.fetches());
        assertEquals(Optional.empty(), source.readTip(remote("absent"), ""));
    }

    @Test
    void tipRefusalsNameTheCommitOrTheCredentials() {
        String commit = server.clone("config").write("bad.yaml", "a: [").commitAndPush("bad");
        RevisionRefusedException parse = assertThrows(RevisionRefusedException.class,
                () -> source.readTip(remote(null), ""));
        assertEquals(RevisionRefusedException.PARSE_ERROR, parse.reason());
        assertEquals(commit, parse.commit());
        dev.rekon.core.RefusedException denied = assertThrows(dev.rekon.core.RefusedException.class,
                () -> source.readTip(new GitRemote(server.url("config"), "main", new GitCredentials("alice", "wrong")), ""));
        assertEquals(401, denied.code());
        dev.rekon.core.RefusedException missing = assertThrows(dev.rekon.core.RefusedException.class,
                () -> source.readTip(new GitRemote(server.url("nothing"), "main", ALICE), ""));
        assertEquals(404, missing.code());
    }

    @Test
    void cacheKeepsToItsSizeByRemovingTheLeastRecentlyRead() throws Exception {
        server.createRepo("other");
        String a = server.clone("config").write("a.yaml", CM.formatted("a")).commitAndPush("a");
        String b = server.clone("other").write("b.yaml", CM.formatted("b")).commitAndPush("b");
        Path cacheDir = dir.resolve("small-cache");
        JGitSource small = new JGitSource(cacheDir, 1, Duration.ofSeconds(10), SourceLimits.DEFAULTS);
        GitRemote other = new GitRemote(server.url("other"), "main", ALICE);

        assertEquals(a, small.readTip(remote(null), "").orElseThrow().commit());
        assertEquals(b, small.readTip(other, "").orElseThrow().commit());
        try (var repos = java.nio.file.Files.list(cacheDir)) {
            assertEquals(1, repos.count(), "only the repository just read stays in a cache of one byte");
        }
        small.readTip(other, "");
        assertEquals(2, small.fetches());
        small.readTip(remote(null), "");
        assertEquals(3, small.fetches(), "the removed repository is fetched again");
    }

    @Test
    void aFetchIntoACacheWithinItsSizeWalksOnlyTheFolderFetchedInto() throws Exception {
        server.clone("config").write("a.yaml", CM.formatted("a")).commitAndPush("a");
        List<GitRemote> others = new java.util.ArrayList<>();
        for (String name : List.of("two", "three", "four")) {
            server.createRepo(name);
            server.clone(name).write("b.yaml", CM.formatted("b")).commitAndPush("b");
            others.add(new GitRemote(server.url(name), "main", ALICE));
        }
        source.readTip(remote(null), "");
        long walks = source.cacheWalks();
        others.forEach(r -> source.readTip(r, ""));
        assertEquals(3, source.fetches() - 1);
        assertEquals(3, source.cacheWalks() - walks, "each fetch walks its own folder, not the whole cache again");
        try (var repos = java.nio.file.Files.list(dir.resolve("cache"))) {
            for (Path repo : repos.toList()) {
                String config = assertDoesNotThrow(() -> java.nio.file.Files.readString(repo.resolve("config")));
                assertTrue(config.contains("auto = 0") && config.contains("bare = true"),
                        "no automatic gc outside the folder's lock, in a bare repository: " + config);
            }
        }
    }

    @Test
    void contentErrorsAndMissingPathAreRefused() {
        GitWorkdir work = server.clone("config");
        String commit = work.write("apps/big.yaml", "#".repeat(5 << 20)).write("k/kustomization.yaml", "resources: []\n")
                .commitAndPush("bad");
        RevisionRefusedException big = assertThrows(RevisionRefusedException.class,
                () -> source.readTip(remote(null), "apps"));
        assertEquals(RevisionRefusedException.TOO_LARGE, big.reason());
        assertEquals(commit, big.commit());
        RevisionRefusedException kustomize = assertThrows(RevisionRefusedException.class,
                () -> source.readTip(remote(null), "k"));
        assertEquals(RevisionRefusedException.KUSTOMIZE_UNSUPPORTED, kustomize.reason());
        RevisionRefusedException missing = assertThrows(RevisionRefusedException.class,
                () -> source.readTip(remote(null), "nowhere"));
        assertEquals(RevisionRefusedException.PATH_NOT_FOUND, missing.reason());
    }

    @Test
    void wrongPasswordIsRefused() {
        server.clone("config").write("a.yaml", CM.formatted("a")).commitAndPush("first");
        GitRemote wrong = new GitRemote(server.url("config"), "main", new GitCredentials("alice", "wrong"));
        RefusedException e = assertThrows(RefusedException.class, () -> source.readTip(wrong, ""));
        assertEquals(401, e.code(), e.getMessage());
        assertTrue(e.getMessage().contains("answered 401: the credentials"), e.getMessage());

        GitRemote anonymous = new GitRemote(server.url("config"), "main", null);
        RefusedException none = assertThrows(RefusedException.class, () -> source.readTip(anonymous, ""));
        assertEquals(401, none.code(), none.getMessage());
        assertTrue(none.getMessage().contains("set spec.git.secretRef"), none.getMessage());
    }

    @Test
    void missingRepositoryIsRefused() {
        GitRemote missing = new GitRemote(server.url("absent"), "main", ALICE);
        RefusedException e = assertThrows(RefusedException.class, () -> source.readTip(missing, ""));
        assertEquals(404, e.code(), e.getMessage());
    }

    @Test
    void aWebPageAtTheUrlIsRefusedNotRetried() throws Exception {
        com.sun.net.httpserver.HttpServer page = com.sun.net.httpserver.HttpServer.create(
                new java.net.InetSocketAddress("127.0.0.1", 0), 0);
        page.createContext("/", exchange -> {
            byte[] html = "<!DOCTYPE html>\n<html><body>org/repo</body></html>\n".getBytes();
            exchange.getResponseHeaders().add("Content-Type", "text/html");
            exchange.sendResponseHeaders(200, html.length);
            exchange.getResponseBody().write(html);
            exchange.close();
        });
        page.start();
        try {
            GitRemote web = new GitRemote("http://127.0.0.1:" + page.getAddress().getPort() + "/org/repo", "main", null);
            RefusedException e = assertThrows(RefusedException.class, () -> source.readTip(web, ""));
            assertEquals(404, e.code(), e.getMessage());
            assertTrue(e.getMessage().contains("not as a git repository"), e.getMessage());
        } finally {
            page.stop(0);
        }
    }

    @Test
    void stoppedServerIsTransient() {
        server.clone("config").write("a.yaml", CM.formatted("a")).commitAndPush("first");
        server.stop();
        assertThrows(TransientFailureException.class, () -> source.readTip(remote(null), ""));
    }

    @Test
    void serverErrorIsTransient() {
        server.failWith(503);
        TransientFailureException e = assertThrows(TransientFailureException.class, () -> source.readTip(remote(null), ""));
        assertTrue(e.getMessage().contains("503"), e.getMessage());
    }

    @Test
    void nonHttpUrlIsRefused() {
        RefusedException e = assertThrows(RefusedException.class,
                () -> source.readTip(new GitRemote("git@example.com:a/b.git", "main", null), ""));
        assertTrue(e.getMessage().contains("not an http(s) URL"), e.getMessage());
    }

    /**
     * The reads the server logged since {@code before}, once it logged {@code expected} (it logs after answering, so
     * the test's own push may be logged after {@code before} was taken: receive-pack requests are left out).
     */
    private List<String> requestsSince(int before, int expected) {
        long deadline = System.nanoTime() + 2_000_000_000L;
        while (reads(before).size() < expected && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        try {
            Thread.sleep(200); // a request more would be logged by now
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return reads(before);
    }

    private List<String> reads(int before) {
        List<String> all = server.requests();
        return all.subList(Math.min(before, all.size()), all.size()).stream().filter(r -> !r.contains("receive-pack"))
                .toList();
    }

    private GitRemote remote(String branch) {
        return new GitRemote(server.url("config"), branch, ALICE);
    }
}
