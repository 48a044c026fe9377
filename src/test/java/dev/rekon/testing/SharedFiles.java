package dev.rekon.testing;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Finds the upstream files that sit beside the project in CI ({@code ../shared}); a user's clone has none,
 * and tests that truly need them are skipped with a message saying so.
 */
public final class SharedFiles {

    private SharedFiles() {
    }

    /** The shared folder, or null when it is not there. Property {@code rekon.shared.dir} overrides the default. */
    public static Path dir() {
        String configured = System.getProperty("rekon.shared.dir", System.getenv("REKON_SHARED_DIR"));
        Path dir = configured != null ? Path.of(configured) : projectDir().resolve("../shared").normalize();
        return Files.isDirectory(dir) ? dir : null;
    }

    public static Path crdsDir() {
        Path dir = dir();
        return dir != null && Files.isDirectory(dir.resolve("crds")) ? dir.resolve("crds") : null;
    }

    public static Path payloadsDir() {
        Path dir = dir();
        return dir != null && Files.isDirectory(dir.resolve("payloads")) ? dir.resolve("payloads") : null;
    }

    /** The project root: Maven runs tests there; {@code basedir} is set when it does not. */
    public static Path projectDir() {
        return Path.of(System.getProperty("basedir", System.getProperty("user.dir"))).toAbsolutePath();
    }
}
