package dev.rekon.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.stream.Stream;

/**
 * A copy of the project's build inputs (the pom, the Maven wrapper, the main sources), for tests that build the
 * application as users do without touching this run's {@code target/}: a container image, or the packaged
 * application a test starts as a process of its own.
 */
public final class ProjectCopy {

    private static Path packaged;

    private ProjectCopy() {
    }

    /**
     * Copies the build inputs to {@code to}; answers it. The sources of an earlier copy go first: a file deleted
     * from the checkout since then must not be compiled into the copy.
     */
    public static Path of(Path to) throws IOException {
        Path from = SharedFiles.projectDir();
        Path oldSources = to.resolve("src/main");
        if (Files.exists(oldSources)) {
            try (Stream<Path> old = Files.walk(oldSources)) {
                for (Path f : old.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.delete(f);
                }
            }
        }
        for (String part : List.of("pom.xml", "mvnw", ".mvn", "src/main")) {
            try (Stream<Path> files = Files.walk(from.resolve(part))) {
                for (Path f : files.toList()) {
                    Path dest = to.resolve(from.relativize(f).toString());
                    if (Files.isDirectory(f)) {
                        Files.createDirectories(dest);
                    } else {
                        Files.createDirectories(dest.getParent());
                        Files.copy(f, dest, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.COPY_ATTRIBUTES);
                    }
                }
            }
        }
        return to;
    }

    /**
     * The application as {@code ./mvnw package} packages it ({@code quarkus-app}), built from a copy of this
     * checkout's sources once per test run, so a test never starts a package older than the code it tests.
     */
    public static synchronized Path packagedApp() throws IOException, InterruptedException {
        if (packaged == null) {
            Path copy = SharedFiles.projectDir().resolve("target/packaged-app/project");
            Commands.run(of(copy), "./mvnw", "-B", "-q", "package", "-DskipTests");
            packaged = copy.resolve("target/quarkus-app");
        }
        return packaged;
    }
}
