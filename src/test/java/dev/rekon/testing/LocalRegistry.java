package dev.rekon.testing;

import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * A real CNCF distribution registry ({@code docker-registry} from Debian) on a free loopback port, with
 * push notifications pointed at the application under test. One shared instance per JVM serves most
 * tests; {@link #start(Options)} gives a separate one (behind htpasswd, say) that the caller stops.
 */
public final class LocalRegistry {

    /** The token the registry sends with its notifications, as configured in the test application. */
    public static final String NOTIFICATION_TOKEN = "test-token";

    /** How a registry is set up: optional basic-auth user, optional notification endpoint. */
    public record Options(String name, String user, String password, String notifyUrl, String notifyToken, int port,
            TokenAuthServer tokens) {

        public static Options plain(String name) {
            return new Options(name, null, null, null, null, 0, null);
        }

        public Options withBasicAuth(String user, String password) {
            return new Options(name, user, password, notifyUrl, notifyToken, port, tokens);
        }

        /** Docker token authentication: clients get bearer tokens from the given token service. */
        public Options withTokenAuth(TokenAuthServer tokens) {
            return new Options(name, user, password, notifyUrl, notifyToken, port, tokens);
        }

        public Options notifying(String url, String token) {
            return new Options(name, user, password, url, token, port, tokens);
        }

        /** A fixed port (0 = any free one). */
        public Options onPort(int port) {
            return new Options(name, user, password, notifyUrl, notifyToken, port, tokens);
        }
    }

    private static LocalRegistry shared;

    private final Options options;
    private final Path dir;
    private final int port;
    private Process process;

    private LocalRegistry(Options options, Path dir, int port) {
        this.options = options;
        this.dir = dir;
        this.port = port;
    }

    public static synchronized LocalRegistry get() {
        if (shared == null) {
            shared = start(Options.plain("registry").notifying(notificationUrl(), NOTIFICATION_TOKEN));
            Runtime.getRuntime().addShutdownHook(new Thread(shared::stop, "local-registry-stop"));
        }
        return shared;
    }

    /** Stops the shared registry of this class loader, if one runs; a later {@link #get()} starts another. */
    public static synchronized void stopShared() {
        LocalRegistry running = shared;
        shared = null;
        if (running != null) {
            running.stop();
        }
    }

    /**
     * Where the shared registry sends its notifications: the port the application under test listens on, taken from
     * {@link RekonTestResource} in this class loader. Not from a system property: each application start has a class
     * loader of its own, its test resources start in no fixed order, and another start's value was still there when
     * {@code PublicationResource} started the registry first (its notifications went to a port nobody listened on).
     */
    static String notificationUrl() {
        return "http://127.0.0.1:" + RekonTestResource.port() + "/webhooks/distribution";
    }

    public static LocalRegistry start(Options options) {
        Path dir = SharedFiles.projectDir().resolve("target/" + options.name());
        LocalRegistry registry = new LocalRegistry(options, dir, options.port() > 0 ? options.port() : freePort());
        registry.launch();
        return registry;
    }

    public String hostPort() {
        return "127.0.0.1:" + port;
    }

    public boolean isRunning() {
        return process != null && process.isAlive();
    }

    /** Starts the process again on the same port and storage, e.g. after {@link #stop()} in a chaos test. */
    public synchronized void launch() {
        if (isRunning()) {
            return;
        }
        try {
            Files.createDirectories(dir.resolve("storage"));
            Path config = dir.resolve("config.yml");
            Files.writeString(config, config());
            ProcessBuilder pb = new ProcessBuilder(binary(), "serve", config.toString());
            pb.redirectErrorStream(true);
            pb.redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("registry.log").toFile()));
            process = pb.start();
            awaitReady();
        } catch (IOException e) {
            throw new IllegalStateException("cannot start docker-registry in " + dir, e);
        }
    }

    public synchronized void stop() {
        if (process != null) {
            process.destroy();
            try {
                process.waitFor();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            process = null;
        }
    }

    private String config() throws IOException {
        List<String> y = new ArrayList<>();
        y.add("version: 0.1");
        y.add("log:");
        y.add("  level: info");
        y.add("  formatter: text");
        y.add("storage:");
        y.add("  filesystem:");
        y.add("    rootdirectory: " + dir.resolve("storage"));
        y.add("  delete:");
        y.add("    enabled: true");
        y.add("http:");
        y.add("  addr: 127.0.0.1:" + port);
        y.add("  secret: rekon-local-registry");
        if (options.user() != null) {
            Path htpasswd = dir.resolve("htpasswd");
            Files.writeString(htpasswd, htpasswdLine(options.user(), options.password()));
            y.add("auth:");
            y.add("  htpasswd:");
            y.add("    realm: rekon-local");
            y.add("    path: " + htpasswd);
        }
        if (options.tokens() != null) {
            y.add("auth:");
            y.add("  token:");
            y.add("    realm: " + options.tokens().realm());
            y.add("    service: " + TokenAuthServer.SERVICE);
            y.add("    issuer: " + TokenAuthServer.ISSUER);
            y.add("    rootcertbundle: " + options.tokens().certificate());
        }
        if (options.notifyUrl() != null) {
            // The same notification settings as docs/webhooks.md shows users.
            y.add("notifications:");
            y.add("  endpoints:");
            y.add("  - name: rekon");
            y.add("    url: " + options.notifyUrl());
            y.add("    headers:");
            y.add("      Authorization: [\"Bearer " + options.notifyToken() + "\"]");
            y.add("    timeout: 2s");
            y.add("    threshold: 5");
            y.add("    backoff: 1s");
            y.add("    ignoredmediatypes:");
            y.add("    - application/octet-stream");
            y.add("    ignore:");
            y.add("      actions:");
            y.add("      - pull");
        }
        return String.join("\n", y) + "\n";
    }

    private static String htpasswdLine(String user, String password) throws IOException {
        Process p = new ProcessBuilder("htpasswd", "-Bbn", user, password).redirectErrorStream(true).start();
        try {
            String out = new String(p.getInputStream().readAllBytes()).trim();
            if (p.waitFor() != 0) {
                throw new IOException("htpasswd failed: " + out);
            }
            return out + "\n";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
    }

    private void awaitReady() {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(30));
        while (Instant.now().isBefore(deadline)) {
            if (!process.isAlive()) {
                throw new IllegalStateException("docker-registry exited; see " + dir.resolve("registry.log"));
            }
            try {
                HttpURLConnection c = (HttpURLConnection) URI.create("http://" + hostPort() + "/v2/").toURL()
                        .openConnection();
                c.setConnectTimeout(500);
                int code = c.getResponseCode();
                if (code == 200 || code == 401) {
                    return;
                }
            } catch (IOException notYet) {
                // still starting
            }
            sleep(100);
        }
        throw new IllegalStateException("docker-registry did not answer on " + hostPort() + " within 30 s");
    }

    private static String binary() {
        for (String candidate : List.of("/usr/bin/docker-registry", "/usr/local/bin/docker-registry")) {
            if (Files.isExecutable(Path.of(candidate))) {
                return candidate;
            }
        }
        throw new IllegalStateException("docker-registry is not installed: run hack/control-plane.sh");
    }

    public static int freePort() {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
