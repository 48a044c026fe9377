package dev.rekon.packaging;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import dev.rekon.testing.Commands;

/**
 * The local stand-in for {@code eclipse-temurin:25.0.3_9-jdk-noble}, built offline with umoci: a JDK 25 of
 * this machine at /opt/java/openjdk with {@code JAVA_HOME} and {@code PATH} as the Temurin image sets them,
 * plus what {@code hack/start.sh} calls (bash, sed, cat, rm, dirname, readlink) and the shared libraries all
 * of them load. Nothing else, so that it is quick to build, push and unpack.
 */
final class JdkBaseImage {

    static final String JAVA_HOME = "/opt/java/openjdk";
    static final String PATH = JAVA_HOME + "/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
    private static final List<String> TOOLS = List.of("bash", "sed", "cat", "rm", "dirname", "readlink");
    private static final Pattern LIBRARY = Pattern.compile("(/\\S+) \\(0x");

    private JdkBaseImage() {
    }

    /**
     * A JDK 25 or later: property {@code rekon.jdk25} (a JDK directory, or {@code none} to check without one),
     * else JAVA_HOME, the running JVM, or one in the usual JVM directory; null if none.
     */
    static Path jdk25() throws IOException {
        List<Path> candidates = new ArrayList<>();
        String configured = System.getProperty("rekon.jdk25");
        if (configured != null) {
            return configured.equals("none") || feature(Path.of(configured)) < 25 ? null : Path.of(configured);
        }
        if (System.getenv("JAVA_HOME") != null) {
            candidates.add(Path.of(System.getenv("JAVA_HOME")));
        }
        candidates.add(Path.of(System.getProperty("java.home")));
        Path jvms = Path.of("/usr/lib/jvm");
        if (Files.isDirectory(jvms)) {
            try (Stream<Path> dirs = Files.list(jvms)) {
                dirs.sorted().forEach(candidates::add);
            }
        }
        for (Path jdk : candidates) {
            if (feature(jdk) >= 25 && Files.isExecutable(jdk.resolve("bin/java"))) {
                return jdk.toRealPath();
            }
        }
        return null;
    }

    /** Builds the image from {@code jdk} under {@code work} (once per JDK) and pushes it as {@code target}. */
    static void push(Path jdk, Path work, String target) throws IOException, InterruptedException {
        Path layout = work.resolve("jdk-base-" + release(jdk, "JAVA_RUNTIME_VERSION").replace('+', '_'));
        if (!Files.isDirectory(layout)) {
            build(jdk, layout, work.resolve("jdk-base-bundle"));
        }
        Commands.run(work, "skopeo", "copy", "--quiet", "--dest-tls-verify=false", "oci:" + layout + ":base",
                "docker://" + target);
    }

    private static void build(Path jdk, Path layout, Path bundle) throws IOException, InterruptedException {
        Path work = layout.getParent();
        Commands.run(work, "rm", "-rf", bundle.toString(), layout + ".tmp");
        Commands.run(work, "umoci", "init", "--layout", layout + ".tmp");
        Commands.run(work, "umoci", "new", "--image", layout + ".tmp:base");
        Commands.run(work, "umoci", "unpack", "--image", layout + ".tmp:base", bundle.toString());
        fill(bundle.resolve("rootfs"), jdk);
        Commands.run(work, "umoci", "repack", "--image", layout + ".tmp:base", bundle.toString());
        Commands.run(work, "umoci", "config", "--image", layout + ".tmp:base", "--config.env",
                "JAVA_HOME=" + JAVA_HOME, "--config.env", "PATH=" + PATH);
        Commands.run(work, "rm", "-rf", bundle.toString());
        Files.move(Path.of(layout + ".tmp"), layout);
    }

    private static void fill(Path root, Path jdk) throws IOException, InterruptedException {
        Path java = root.resolve(JAVA_HOME.substring(1));
        Files.createDirectories(java);
        for (String part : List.of("bin", "conf", "lib", "release")) {
            Commands.run(root, "cp", "-a", jdk.resolve(part).toString(), java.toString());
        }
        // What only javac, IDEs and debuggers read.
        Commands.run(root, "rm", "-f", java + "/lib/src.zip", java + "/lib/ct.sym");
        List<String> binaries = new ArrayList<>();
        for (String tool : TOOLS) {
            Path to = root.resolve("bin").resolve(tool);
            copy(Path.of(Commands.which(tool)), to);
            binaries.add(to.toString());
        }
        binaries.add(java.resolve("bin/java").toString());
        binaries.add(java.resolve("lib/server/libjvm.so").toString());
        try (Stream<Path> libs = Files.list(java.resolve("lib"))) {
            libs.filter(p -> p.toString().endsWith(".so")).forEach(p -> binaries.add(p.toString()));
        }
        for (String library : libraries(root, binaries)) {
            copy(Path.of(library), root.resolve(library.substring(1)));
        }
        Files.createDirectories(root.resolve("etc"));
        Files.writeString(root.resolve("etc/passwd"), "root:x:0:0:root:/root:/bin/bash\n"
                + "jboss:x:185:0:jboss:/home/jboss:/bin/bash\n");
        Files.writeString(root.resolve("etc/hosts"), "127.0.0.1 localhost\n");
    }

    /** The shared libraries of this machine that {@code binaries} load, as {@code ldd} finds them. */
    private static Set<String> libraries(Path dir, List<String> binaries) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("ldd"));
        cmd.addAll(binaries);
        Matcher m = LIBRARY.matcher(Commands.run(dir, cmd.toArray(String[]::new)));
        Set<String> found = new TreeSet<>();
        while (m.find()) {
            if (!m.group(1).startsWith(dir.toString())) {
                found.add(m.group(1));
            }
        }
        return found;
    }

    private static void copy(Path from, Path to) throws IOException {
        Files.createDirectories(to.getParent());
        Files.copy(from.toRealPath(), to, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.COPY_ATTRIBUTES);
    }

    private static int feature(Path jdk) throws IOException {
        String version = release(jdk, "JAVA_VERSION");
        return version.matches("\\d+.*") ? Integer.parseInt(version.split("\\D", 2)[0]) : 0;
    }

    /** A value of the JDK's release file, or "" when it has none. */
    private static String release(Path jdk, String key) throws IOException {
        Path file = jdk.resolve("release");
        if (!Files.isRegularFile(file)) {
            return "";
        }
        for (String line : Files.readAllLines(file)) {
            if (line.startsWith(key + "=")) {
                return line.substring(key.length() + 1).replace("\"", "");
            }
        }
        return "";
    }
}
