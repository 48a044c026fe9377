package dev.rekon.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The application's live heap: a full GC through {@code jcmd}, then the used size of every generation it reports.
 * Taken before and after the watches hold a set of objects, the difference is what their views retain.
 */
final class HeapUse {

    private static final Pattern USED = Pattern.compile("used (\\d+)K");

    private HeapUse() {
    }

    /** Used heap after a full GC, in MiB; NaN when jcmd cannot reach the process. */
    static double afterFullGcMiB(long pid) {
        try {
            jcmd(pid, "GC.run");
            Matcher m = USED.matcher(jcmd(pid, "GC.heap_info"));
            long kib = 0;
            while (m.find()) {
                kib += Long.parseLong(m.group(1));
            }
            return kib / 1024.0;
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Double.NaN;
        }
    }

    /** The first {@code lines} classes of the live heap by size (jcmd GC.class_histogram), for where it goes. */
    static String histogram(long pid, int lines) {
        try {
            return jcmd(pid, "GC.class_histogram").lines().limit(lines + 3L).collect(
                    java.util.stream.Collectors.joining("\n"));
        } catch (IOException | RuntimeException e) {
            return String.valueOf(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }

    /** jcmd of the JVM the application runs on (JAVA_HOME, as hack/start.sh picks it), else of this one. */
    private static String jcmd(long pid, String command) throws IOException, InterruptedException {
        String home = System.getenv().getOrDefault("JAVA_HOME", System.getProperty("java.home"));
        Process p = new ProcessBuilder(Path.of(home, "bin", "jcmd").toString(), Long.toString(pid), command)
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor();
        return out;
    }
}
