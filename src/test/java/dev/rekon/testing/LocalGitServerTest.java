package dev.rekon.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalGitServerTest {

    @TempDir
    Path dir;

    LocalGitServer server;

    @BeforeEach
    void start() {
        server = LocalGitServer.start(dir.resolve("repos"), "alice", "s3cret");
    }

    @AfterEach
    void stop() {
        server.stop();
    }

    @Test
    void pushedCommitsCloneAgain() throws Exception {
        server.createRepo("config");
        GitWorkdir writer = server.clone("config");
        String sha = writer.write("apps/cm.yaml", "kind: ConfigMap\n").commitAndPush("first");

        GitWorkdir reader = server.clone("config");
        assertEquals(sha, reader.head());
        assertEquals("kind: ConfigMap\n", Files.readString(reader.dir().resolve("apps/cm.yaml")));

        writer.branch("feature").write("b.txt", "b").commitAndPush("on a branch");
        String remote = reader.git("ls-remote", "origin");
        assertTrue(remote.contains("refs/heads/feature"), remote);
        writer.deleteBranch("feature");
        assertTrue(!reader.git("ls-remote", "origin").contains("refs/heads/feature"));
        assertTrue(server.requests().stream().anyMatch(r -> r.startsWith("POST /config.git/git-receive-pack")),
                server.requests().toString());
    }

    @Test
    void wrongPasswordIsUnauthorized() throws Exception {
        server.createRepo("config");
        HttpURLConnection c = get(server.url("config") + "/info/refs?service=git-upload-pack", "alice", "wrong");
        assertEquals(401, c.getResponseCode());
        assertEquals("Basic realm=\"git\"", c.getHeaderField("WWW-Authenticate"));
        assertEquals(401, get(server.url("config") + "/info/refs?service=git-upload-pack", null, null)
                .getResponseCode());

        String bad = server.url("config").replace("http://", "http://alice:wrong@");
        Exception e = org.junit.jupiter.api.Assertions.assertThrows(Exception.class,
                () -> Commands.run(dir, Map.of("GIT_TERMINAL_PROMPT", "0"), "git", "ls-remote", bad));
        assertTrue(e.getMessage().contains("Authentication failed"), e.getMessage());
    }

    @Test
    void missingRepositoryIsNotFound() throws Exception {
        HttpURLConnection c = get(server.url("absent") + "/info/refs?service=git-upload-pack", "alice", "s3cret");
        assertEquals(404, c.getResponseCode());
    }

    @Test
    void smartAdvertisementServed() throws Exception {
        server.createRepo("config");
        HttpURLConnection c = get(server.url("config") + "/info/refs?service=git-upload-pack", "alice", "s3cret");
        assertEquals(200, c.getResponseCode());
        assertEquals("application/x-git-upload-pack-advertisement", c.getContentType());
    }

    private static HttpURLConnection get(String url, String user, String password) throws Exception {
        HttpURLConnection c = (HttpURLConnection) URI.create(url).toURL().openConnection();
        if (user != null) {
            c.setRequestProperty("Authorization", "Basic " + Base64.getEncoder()
                    .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8)));
        }
        return c;
    }
}
