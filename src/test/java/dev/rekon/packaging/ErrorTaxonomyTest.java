package dev.rekon.packaging;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * One error taxonomy: outside {@code cluster/} and {@code registry/} the code names only {@code core/}'s failures
 * ({@code RefusedException}, {@code ConflictException}, {@code TransientFailureException}), never a class the
 * Kubernetes or the registry edge makes them of, and no catch of a transient failure swallows a conflict.
 */
class ErrorTaxonomyTest {

    static final Path SOURCES = Path.of("src/main/java/dev/rekon");

    @Test
    void theEdgesRefusalClassIsNamedOnlyInCluster() throws IOException {
        try (Stream<Path> files = Files.walk(SOURCES)) {
            List<String> naming = files.filter(p -> p.toString().endsWith(".java"))
                    .filter(p -> !SOURCES.relativize(p).startsWith("cluster"))
                    .filter(p -> read(p).contains("PermanentApiException"))
                    .map(p -> SOURCES.relativize(p).toString()).sorted().toList();
            assertEquals(List.of(), naming, "files naming KubeErrors.PermanentApiException instead of RefusedException");
        }
    }

    @Test
    void registryFailuresAreNamedOnlyAsCoreFailures() throws IOException {
        try (Stream<Path> files = Files.walk(SOURCES)) {
            List<String> naming = files.filter(p -> p.toString().endsWith(".java"))
                    .filter(p -> read(p).contains("RegistryException"))
                    .map(p -> SOURCES.relativize(p).toString()).sorted().toList();
            assertEquals(List.of(), naming, "files naming a registry failure class instead of core/'s failures");
        }
    }

    private static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
