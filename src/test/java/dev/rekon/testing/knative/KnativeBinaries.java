package dev.rekon.testing.knative;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;

import dev.rekon.testing.LocalCluster;
import dev.rekon.testing.SharedFiles;

/**
 * Finds the Knative programs the end-to-end tests run (the ApiServerSource and PingSource adapters of
 * knative.dev/eventing and the test broker), built by {@code hack/knative-adapters.sh} into the cache. When they
 * are absent the script is run once; only when it cannot run (no Go) are the tests skipped, saying so.
 */
public final class KnativeBinaries {

    public static final String VERSION = "v0.50.0";
    private static final long BUILD_TIMEOUT_MINUTES = 40;
    private static Path dir;

    private KnativeBinaries() {
    }

    public static synchronized Path dir() {
        if (dir != null) {
            return dir;
        }
        Path cached = LocalCluster.cacheDir().resolve("knative/" + VERSION);
        if (!present(cached)) {
            Assumptions.assumeTrue(onPath("go"), "the Knative adapters are not built in " + cached
                    + " and Go is absent, so hack/knative-adapters.sh cannot build them: skipped");
            build();
        }
        if (!present(cached)) {
            throw new IllegalStateException("hack/knative-adapters.sh ran but " + cached + " lacks the programs");
        }
        dir = cached;
        return dir;
    }

    public static Path program(String name) {
        return dir().resolve(name);
    }

    private static boolean present(Path d) {
        return List.of("apiserver_receive_adapter", "mtping", "knative-broker", "cloudevents").stream()
                .allMatch(b -> Files.isExecutable(d.resolve(b)));
    }

    private static void build() {
        Path project = SharedFiles.projectDir();
        Path log = project.resolve("target/knative-adapters-build.log");
        try {
            Files.createDirectories(log.getParent());
            Process p = new ProcessBuilder("bash", "hack/knative-adapters.sh").directory(project.toFile())
                    .redirectErrorStream(true).redirectOutput(log.toFile()).start();
            if (!p.waitFor(BUILD_TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
                p.destroy();
                throw new IllegalStateException("hack/knative-adapters.sh took over " + BUILD_TIMEOUT_MINUTES + " min");
            }
            if (p.exitValue() != 0) {
                throw new IllegalStateException("hack/knative-adapters.sh failed: " + Files.readString(log));
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot run hack/knative-adapters.sh", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while building the Knative adapters", e);
        }
    }

    private static boolean onPath(String program) {
        String path = System.getenv().getOrDefault("PATH", "");
        for (String d : path.split(":")) {
            if (!d.isEmpty() && Files.isExecutable(Path.of(d, program))) {
                return true;
            }
        }
        return false;
    }
}
