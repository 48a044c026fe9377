package dev.rekon.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The packaged application as a child process on a free port, started as in production by {@code hack/start.sh}
 * (the JVM flags, the AOT cache when there is one) with {@code JAVA_OPTS} from {@code rekon.bench.java-opts}
 * (default {@value #JAVA_OPTS}: sized as in the Knative Service) and the application directory from
 * {@code rekon.bench.app} (default {@code target/quarkus-app}); or the entrypoint of an unpacked image.
 */
public final class App {

    static final String JAVA_OPTS = "-XX:MaxRAM=512m";

    private final Process process;
    private final int port;
    private final long startedNanos;

    private App(Process process, int port, long startedNanos) {
        this.process = process;
        this.port = port;
        this.startedNanos = startedNanos;
    }

    public static App start(Path projectDir, Path kubeconfig, Path log, String... properties) {
        return start(projectDir, Map.of(), kubeconfig, log, properties);
    }

    /** @param env more environment for {@code hack/start.sh}, e.g. {@code REKON_AOT} */
    public static App start(Path projectDir, Map<String, String> env, Path kubeconfig, Path log, String... properties) {
        Path appDir = Path.of(System.getProperty("rekon.bench.app", projectDir.resolve("target/quarkus-app").toString()));
        return start(projectDir, appDir, env, kubeconfig, log, properties);
    }

    /** @param appDir the packaged application ({@code quarkus-app}) to start */
    public static App start(Path projectDir, Path appDir, Map<String, String> env, Path kubeconfig, Path log,
            String... properties) {
        if (!Files.isRegularFile(appDir.resolve("quarkus-run.jar"))) {
            throw new IllegalStateException("no " + appDir + "/quarkus-run.jar: run ./mvnw package -DskipTests first");
        }
        int port = SecondApiServer.freePort();
        String javaOpts = System.getProperty("rekon.bench.java-opts", JAVA_OPTS);
        List<String> cmd = new ArrayList<>(List.of("bash", projectDir.resolve("hack/start.sh").toString()));
        if (Boolean.getBoolean("rekon.bench.plain")) {
            // The start before hack/start.sh existed, for before/after figures: java -jar, the Service's sizing only.
            cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
            cmd.addAll(List.of(javaOpts.split(" ")));
        }
        cmd.addAll(List.of("-Dkubeconfig=" + kubeconfig, "-Dquarkus.http.port=" + port, "-Dquarkus.http.host=127.0.0.1"));
        for (String p : properties) {
            cmd.add("-D" + p);
        }
        if (Boolean.getBoolean("rekon.bench.plain")) {
            cmd.addAll(List.of("-jar", appDir.resolve("quarkus-run.jar").toString()));
        }
        ProcessBuilder builder = new ProcessBuilder(cmd);
        builder.environment().put("REKON_APP", appDir.toString());
        builder.environment().put("JAVA_OPTS", javaOpts);
        builder.environment().putAll(env);
        return launch(builder, port, log);
    }

    /**
     * The image's entrypoint in an unpacked image ({@link ImageRoot}), with {@code JAVA_OPTS} as in
     * {@link #start(Path, Map, Path, Path, String...)} unless {@code env} has one; the kubeconfig is copied in.
     */
    public static App inImage(ImageRoot image, Map<String, String> env, Path kubeconfig, Path log,
            String... properties) throws IOException {
        int port = SecondApiServer.freePort();
        Map<String, String> all = new TreeMap<>(Map.of("JAVA_OPTS",
                System.getProperty("rekon.bench.java-opts", JAVA_OPTS)));
        all.putAll(env);
        List<String> args = new ArrayList<>(List.of("-Dkubeconfig=" + image.kubeconfig(kubeconfig),
                "-Dquarkus.http.port=" + port, "-Dquarkus.http.host=127.0.0.1"));
        for (String p : properties) {
            args.add("-D" + p);
        }
        List<String> vars = all.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).toList();
        return launch(new ProcessBuilder(image.command(vars, args)), port, log);
    }

    private static App launch(ProcessBuilder builder, int port, Path log) {
        builder.redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.to(log.toFile()));
        try {
            long t0 = System.nanoTime();
            Process p = builder.start();
            App app = new App(p, port, t0);
            Runtime.getRuntime().addShutdownHook(new Thread(app::stop, "app-stop"));
            return app;
        } catch (IOException e) {
            throw new IllegalStateException("cannot start the application", e);
        }
    }

    public int port() {
        return port;
    }

    public long startedNanos() {
        return startedNanos;
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** Peak resident set size of the process so far (VmHWM), in MiB. */
    public double peakRssMiB() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/" + process.pid() + "/status"))) {
                if (line.startsWith("VmHWM:")) {
                    return Long.parseLong(line.replaceAll("\\D", "")) / 1024.0;
                }
            }
        } catch (IOException e) {
            // gone already
        }
        return -1;
    }

    /** SIGKILL, as the OOM killer or a lost node ends a process: no shutdown hook, no finished request. */
    public void kill() {
        end(process.destroyForcibly());
    }

    public void stop() {
        process.destroy();
        end(process);
    }

    private static void end(Process p) {
        try {
            p.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
