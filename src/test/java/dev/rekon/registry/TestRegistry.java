package dev.rekon.registry;

import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A real CNCF distribution registry ({@code docker-registry}) on 127.0.0.1 with a fresh storage directory,
 * optionally behind htpasswd auth, for tests that need a registry with credentials.
 */
public final class TestRegistry implements AutoCloseable {

    public static final String USER = "rekon";
    public static final String PASSWORD = "s3cret-pull";

    private final Process process;
    private final int port;

    private TestRegistry(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    public static TestRegistry start(boolean htpasswd) throws IOException, InterruptedException {
        Path dir = Files.createTempDirectory("rekon-registry");
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        StringBuilder config = new StringBuilder("""
                version: 0.1
                log: {level: error}
                storage: {filesystem: {rootdirectory: %s}, delete: {enabled: true}}
                http: {addr: "127.0.0.1:%d"}
                """.formatted(dir.resolve("data"), port));
        if (htpasswd) {
            Process h = new ProcessBuilder("htpasswd", "-Bbn", USER, PASSWORD).start();
            String line = new String(h.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            h.waitFor(30, TimeUnit.SECONDS);
            Files.writeString(dir.resolve("htpasswd"), line + "\n");
            config.append("auth: {htpasswd: {realm: rekon-test, path: ").append(dir.resolve("htpasswd")).append("}}\n");
        }
        Files.writeString(dir.resolve("config.yml"), config);
        Process p = new ProcessBuilder("docker-registry", "serve", dir.resolve("config.yml").toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve("registry.log").toFile()).start();
        TestRegistry r = new TestRegistry(p, port);
        r.awaitUp();
        return r;
    }

    public String hostPort() {
        return "127.0.0.1:" + port;
    }

    private void awaitUp() throws IOException, InterruptedException {
        for (int i = 0; i < 100; i++) {
            try {
                HttpURLConnection c = (HttpURLConnection) URI.create("http://" + hostPort() + "/v2/").toURL().openConnection();
                c.getResponseCode();
                return;
            } catch (IOException notYet) {
                Thread.sleep(100);
            }
        }
        close();
        throw new IOException("docker-registry did not start on " + hostPort());
    }

    @Override
    public void close() {
        process.destroy();
    }
}
