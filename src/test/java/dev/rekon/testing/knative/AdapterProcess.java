package dev.rekon.testing.knative;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.rekon.testing.Await;
import dev.rekon.testing.LocalRegistry;

/**
 * A Knative adapter (the ApiServerSource receive adapter or mtping) as a local process against the local
 * apiserver, configured through the environment as Knative configures its pods. Its health server binds :8080
 * (hard-coded in knative.dev/pkg's injection.HealthCheckDefaultPort; when that port is taken the adapter logs it
 * and carries on) and its profiling server the free port given as PROFILING_PORT.
 */
public final class AdapterProcess implements AutoCloseable {

    private final Process process;
    private final Path log;

    private AdapterProcess(Process process, Path log) {
        this.process = process;
        this.log = log;
    }

    /**
     * Starts {@code program} with the environment given plus the profiling port, and waits until its log shows
     * {@code started} (then a moment, for the informers' first list, whose objects make no event).
     */
    public static AdapterProcess start(String program, Map<String, String> env, Path log, String started) {
        try {
            Files.createDirectories(log.getParent());
            Files.deleteIfExists(log);
            ProcessBuilder pb = new ProcessBuilder(List.of(KnativeBinaries.program(program).toString()))
                    .redirectErrorStream(true).redirectOutput(log.toFile());
            pb.environment().putAll(env);
            pb.environment().put("PROFILING_PORT", String.valueOf(LocalRegistry.freePort()));
            AdapterProcess adapter = new AdapterProcess(pb.start(), log);
            Await.until(program + " to start (log: " + log + ")", Duration.ofSeconds(30),
                    () -> adapter.logged(started) || !adapter.process.isAlive());
            if (!adapter.process.isAlive()) {
                throw new IllegalStateException(program + " exited with " + adapter.process.exitValue() + ":\n"
                        + adapter.logText());
            }
            Thread.sleep(1500);
            return adapter;
        } catch (IOException e) {
            throw new IllegalStateException("cannot start " + program, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting " + program, e);
        }
    }

    public boolean alive() {
        return process.isAlive();
    }

    public boolean logged(String text) {
        return logText().contains(text);
    }

    public String logText() {
        try {
            return Files.exists(log) ? Files.readString(log) : "";
        } catch (IOException e) {
            return "";
        }
    }

    /** The process id, for the bench's RSS readings. */
    public long pid() {
        return process.pid();
    }

    @Override
    public void close() {
        process.destroy();
        try {
            process.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
