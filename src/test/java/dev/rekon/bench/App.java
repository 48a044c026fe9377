package dev.rekon.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The packaged application ({@code target/quarkus-app}) as a child process on a free port. */
public final class App {

    private final Process process;
    private final int port;
    private final long startedNanos;

    private App(Process process, int port, long startedNanos) {
        this.process = process;
        this.port = port;
        this.startedNanos = startedNanos;
    }

    public static App start(Path projectDir, Path kubeconfig, Path log, String... properties) {
        Path jar = projectDir.resolve("target/quarkus-app/quarkus-run.jar");
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("no " + jar + ": run ./mvnw package -DskipTests first");
        }
        int port = SecondApiServer.freePort();
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Dkubeconfig=" + kubeconfig, "-Dquarkus.http.port=" + port, "-Dquarkus.http.host=127.0.0.1"));
        for (String p : properties) {
            cmd.add("-D" + p);
        }
        cmd.addAll(List.of("-jar", jar.toString()));
        try {
            long t0 = System.nanoTime();
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.to(log.toFile())).start();
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

    public void stop() {
        process.destroy();
        try {
            process.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
