package dev.rekon.packaging;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * The house drawn from its imports: no arrow runs up from {@code web/}, an area's page part names no pass of its
 * area, and only the edges ({@code cluster/}, {@code registry/}, the git source) read an HTTP status or a
 * dependency's message text to decide something; and no area owns a thread, an executor or a lock: the loop's work
 * queue schedules every key.
 */
class LayeringTest {

    static final Path SOURCES = Path.of("src/main/java/dev/rekon");
    static final Pattern OWN_IMPORT = Pattern.compile("(?m)^import dev\\.rekon\\.([a-z]+)\\.");
    static final Pattern STATUS_CODE_READ = Pattern.compile(
            "getCode\\(\\)|\\bstatusCode\\(\\)|\\bcode\\(\\) *[=!<>]|HTTP_[A-Z_]+|getMessage\\(\\)\\)?\\.contains");

    static final List<String> AREAS = List.of("buildpacks", "declared", "modules", "promotions", "rollouts");
    static final Pattern SCHEDULING = Pattern.compile("\\bExecutors\\.|\\bnew Thread\\(|\\bnew Timer\\(|"
            + "ExecutorService\\b|java\\.util\\.concurrent\\.locks|\\bnew Semaphore\\(|\\bnew ForkJoinPool\\(");

    @Test
    void webImportsOnlyCoreAndCluster() throws IOException {
        List<String> up = files(p -> SOURCES.relativize(p).startsWith("web")).stream()
                .flatMap(p -> OWN_IMPORT.matcher(read(p)).results().map(m -> m.group(1))
                        .filter(pkg -> !List.of("core", "cluster", "web").contains(pkg))
                        .map(pkg -> SOURCES.relativize(p) + " -> " + pkg))
                .sorted().toList();
        assertEquals(List.of(), up, "arrows running up from web/");
    }

    @Test
    void declaredStatusNamesNoPathIntoTheArea() throws IOException {
        Pattern entry = Pattern.compile(
                "(?m)^import dev\\.rekon\\.declared\\.[A-Za-z]*(Resync|Functions|Service|Reconciler|GitPushes);");
        List<String> up = files(p -> SOURCES.relativize(p).startsWith("declared/status")).stream()
                .filter(p -> entry.matcher(read(p)).find())
                .map(p -> SOURCES.relativize(p).toString()).sorted().toList();
        assertEquals(List.of(), up, "declared/status importing a path into the area (DeclaredResync, ...)");
    }

    @Test
    void onlyTheEdgesReadHttpStatusesOrMessages() throws IOException {
        List<String> reading = files(p -> {
            Path r = SOURCES.relativize(p);
            return !r.startsWith("cluster") && !r.startsWith("registry") && !r.startsWith("declared/source")
                    && !r.startsWith("web"); // web/ is the CloudEvents edge, in (the codes it sends) and out (a sink's)
        }).stream().filter(p -> STATUS_CODE_READ.matcher(read(p)).find())
                .map(p -> SOURCES.relativize(p).toString()).sorted().toList();
        assertEquals(List.of(), reading, "files branching on an HTTP status or a message outside the edges");
    }

    @Test
    void noAreaOwnsThreadsExecutorsOrLocks() throws IOException {
        // The git source is an edge: its lock guards a repository folder on disk that many keys share.
        List<String> owning = files(p -> AREAS.contains(SOURCES.relativize(p).getName(0).toString())
                && !SOURCES.relativize(p).startsWith("declared/source")).stream()
                .filter(p -> SCHEDULING.matcher(read(p)).find())
                .map(p -> SOURCES.relativize(p).toString()).sorted().toList();
        assertEquals(List.of(), owning, "areas making threads, executors, timers or locks of their own");
    }

    private static List<Path> files(java.util.function.Predicate<Path> which) throws IOException {
        try (Stream<Path> files = Files.walk(SOURCES)) {
            return files.filter(p -> p.toString().endsWith(".java")).filter(which).toList();
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
