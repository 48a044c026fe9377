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
 * One error taxonomy: outside {@code cluster/} the code names only {@code core/}'s failures
 * ({@code RefusedException}, {@code ConflictException}, {@code TransientFailureException}), never the class the
 * Kubernetes edge makes them of.
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

    private static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
