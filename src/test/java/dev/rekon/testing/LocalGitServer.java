package dev.rekon.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * A real git server over the smart HTTP protocol on a free loopback port: Debian's {@code git http-backend}
 * run as a CGI program per request, behind HTTP Basic authentication. Bare repositories live under the
 * directory given to {@link #start}; pushes are accepted. Every request is logged, so tests can tell a fetch
 * from a cache hit.
 */
public final class LocalGitServer implements AutoCloseable {

    private final Path root;
    private final String user;
    private final String password;
    private final HttpServer server;
    private final ExecutorService workers = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "local-git-server");
        t.setDaemon(true);
        return t;
    });
    private final List<String> requests = new ArrayList<>();
    private volatile int failure;

    static {
        // The JDK's server leaves Nagle's algorithm on (read once, before its first server), so each answer written
        // in parts waited for the client's delayed ACK: about 40 ms a request, which git hosts do not add.
        System.setProperty("sun.net.httpserver.nodelay", "true");
    }

    private LocalGitServer(Path root, String user, String password) throws IOException {
        this.root = root;
        this.user = user;
        this.password = password;
        Files.createDirectories(root);
        this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", this::handle);
        server.setExecutor(workers);
        server.start();
    }

    public static final String USER = "rekon-git";
    public static final String PASSWORD = "git-test-password";
    private static LocalGitServer shared;

    /** The git server shared by every test of a run (user {@value #USER}), stopped when the JVM exits. */
    public static synchronized LocalGitServer get() {
        if (shared == null) {
            try {
                Path dir = Files.createTempDirectory("rekon-git-server");
                shared = start(dir.resolve("repos"), USER, PASSWORD);
                LocalGitServer s = shared;
                Runtime.getRuntime().addShutdownHook(new Thread(s::stop));
            } catch (IOException e) {
                throw new IllegalStateException("cannot start the git server", e);
            }
        }
        return shared;
    }

    /** Serves the bare repositories under {@code dir}; {@code user} null turns authentication off. */
    public static LocalGitServer start(Path dir, String user, String password) {
        try {
            return new LocalGitServer(dir.toAbsolutePath(), user, password);
        } catch (IOException e) {
            throw new IllegalStateException("cannot start the git server", e);
        }
    }

    public int port() {
        return server.getAddress().getPort();
    }

    /** The clone URL of {@code repoName}, without credentials. */
    public String url(String repoName) {
        return "http://127.0.0.1:" + port() + "/" + repoName + ".git";
    }

    /** The clone URL with this server's credentials in it, for the git command of tests. */
    public String authenticatedUrl(String repoName) {
        return user == null ? url(repoName)
                : "http://" + user + ":" + password + "@127.0.0.1:" + port() + "/" + repoName + ".git";
    }

    /** Creates an empty bare repository whose default branch is main, open to pushes. */
    public void createRepo(String name) {
        Path repo = root.resolve(name + ".git");
        try {
            Commands.run(root, "git", "init", "--quiet", "--bare", "--initial-branch=main", repo.toString());
            Commands.run(repo, "git", "config", "http.receivepack", "true");
        } catch (IOException | InterruptedException e) {
            throw new IllegalStateException("cannot create repository " + name, e);
        }
    }

    /** A fresh clone of {@code repo} in a new directory, to write commits with. */
    public GitWorkdir clone(String repo) {
        return GitWorkdir.clone(authenticatedUrl(repo), root.resolveSibling(root.getFileName() + "-work"));
    }

    /** Answers every following request with {@code status} and no body (0 serves again). */
    public void failWith(int status) {
        failure = status;
    }

    /** The requests served so far, as {@code METHOD path?query status}. */
    public synchronized List<String> requests() {
        return List.copyOf(requests);
    }

    public void stop() {
        server.stop(0);
        workers.shutdownNow();
    }

    @Override
    public void close() {
        stop();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            int status;
            if (failure > 0) {
                status = failure;
                exchange.sendResponseHeaders(status, -1);
            } else {
                status = authorized(exchange) ? cgi(exchange) : unauthorized(exchange);
            }
            String query = exchange.getRequestURI().getRawQuery();
            synchronized (this) {
                requests.add(exchange.getRequestMethod() + " " + exchange.getRequestURI().getRawPath()
                        + (query == null ? "" : "?" + query) + " " + status);
            }
        }
    }

    private boolean authorized(HttpExchange exchange) {
        if (user == null) {
            return true;
        }
        String expected = "Basic " + Base64.getEncoder()
                .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
        return expected.equals(exchange.getRequestHeaders().getFirst("Authorization"));
    }

    private static int unauthorized(HttpExchange exchange) throws IOException {
        exchange.getResponseHeaders().add("WWW-Authenticate", "Basic realm=\"git\"");
        exchange.sendResponseHeaders(401, -1);
        return 401;
    }

    private int cgi(HttpExchange exchange) throws IOException {
        ProcessBuilder b = new ProcessBuilder("git", "http-backend").directory(root.toFile());
        Map<String, String> env = b.environment();
        env.put("GIT_PROJECT_ROOT", root.toString());
        env.put("GIT_HTTP_EXPORT_ALL", "1");
        env.put("GATEWAY_INTERFACE", "CGI/1.1");
        env.put("REQUEST_METHOD", exchange.getRequestMethod());
        env.put("PATH_INFO", exchange.getRequestURI().getPath());
        env.put("QUERY_STRING", exchange.getRequestURI().getRawQuery() == null ? ""
                : exchange.getRequestURI().getRawQuery());
        env.put("REMOTE_ADDR", exchange.getRemoteAddress().getAddress().getHostAddress());
        env.put("REMOTE_USER", user == null ? "anonymous" : user);
        putHeader(env, exchange, "CONTENT_TYPE", "Content-Type");
        // Without CONTENT_LENGTH (a chunked upload) http-backend reads its input to the end.
        putHeader(env, exchange, "CONTENT_LENGTH", "Content-Length");
        putHeader(env, exchange, "GIT_PROTOCOL", "Git-Protocol");
        putHeader(env, exchange, "HTTP_CONTENT_ENCODING", "Content-Encoding");
        b.redirectError(ProcessBuilder.Redirect.DISCARD);
        Process p = b.start();
        // The body is written on its own thread so that a backend answering early never deadlocks on a full pipe.
        workers.submit(() -> {
            try (InputStream in = exchange.getRequestBody(); OutputStream out = p.getOutputStream()) {
                in.transferTo(out);
            } catch (IOException ignored) {
                // The backend stopped reading; its answer says why.
            }
        });
        try (InputStream out = p.getInputStream()) {
            int status = 200;
            for (String line = headerLine(out); !line.isEmpty(); line = headerLine(out)) {
                int colon = line.indexOf(':');
                String name = line.substring(0, colon).trim();
                String value = line.substring(colon + 1).trim();
                if (name.toLowerCase(Locale.ROOT).equals("status")) {
                    status = Integer.parseInt(value.split(" ")[0]);
                } else {
                    exchange.getResponseHeaders().add(name, value);
                }
            }
            exchange.sendResponseHeaders(status, status == 204 || status == 304 ? -1 : 0);
            if (status != 204 && status != 304) {
                try (OutputStream body = exchange.getResponseBody()) {
                    out.transferTo(body);
                }
            }
            return status;
        } finally {
            waitFor(p);
        }
    }

    private static void waitFor(Process p) {
        try {
            // A push's refs are updated before the backend exits; ending it earlier could cut that short.
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    private static void putHeader(Map<String, String> env, HttpExchange exchange, String variable, String header) {
        String value = exchange.getRequestHeaders().getFirst(header);
        if (value != null) {
            env.put(variable, value);
        }
    }

    /** One CGI header line without its line end; empty at the blank line (or the end of the output). */
    private static String headerLine(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        for (int c = in.read(); c != -1 && c != '\n'; c = in.read()) {
            if (c != '\r') {
                line.write(c);
            }
        }
        return line.toString(StandardCharsets.UTF_8);
    }
}
