package dev.rekon.testing;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Runs the command-line tools tests and drivers use (umoci, skopeo, Maven), failing with their output. */
public final class Commands {

    private Commands() {
    }

    /** Runs {@code command} in {@code dir} and returns its output; an exit code other than 0 is an IOException. */
    public static String run(Path dir, String... command) throws IOException, InterruptedException {
        return run(dir, Map.of(), command);
    }

    /** As {@link #run(Path, String...)}, with {@code env} added to this process' environment. */
    public static String run(Path dir, Map<String, String> env, String... command)
            throws IOException, InterruptedException {
        ProcessBuilder b = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true);
        b.environment().putAll(env);
        Process p = b.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(600, TimeUnit.SECONDS) || p.exitValue() != 0) {
            p.destroy();
            throw new IOException(String.join(" ", command) + " failed: " + out);
        }
        return out;
    }

    /** The absolute path of {@code name} on the PATH, or null when it is not there. */
    public static String which(String name) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path p = Path.of(dir.isEmpty() ? "." : dir, name);
            if (Files.isExecutable(p)) {
                return p.toAbsolutePath().toString();
            }
        }
        return null;
    }
}
