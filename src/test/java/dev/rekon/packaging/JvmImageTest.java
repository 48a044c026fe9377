package dev.rekon.packaging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import dev.rekon.bench.App;
import dev.rekon.bench.ImageAot;
import dev.rekon.bench.ImageRoot;
import dev.rekon.testing.Await;
import dev.rekon.testing.Commands;
import dev.rekon.testing.LocalCluster;
import dev.rekon.testing.LocalRegistry;
import dev.rekon.testing.ProjectCopy;
import dev.rekon.testing.SharedFiles;

/**
 * The JVM container image as users build it: Quarkus' Jib extension ({@code ./mvnw package
 * -Dquarkus.container-image.build=true -Dquarkus.container-image.push=true}) runs on a copy of the project
 * (so the build under test does not touch this run's target/), pushes to a real local registry over plain
 * HTTP, and the image config read back over the registry API has the entrypoint, port, user and labels
 * the Knative Service relies on, and the production start {@code hack/start.sh} as the entrypoint. The base
 * image is a small local one, since tests cannot pull from the internet; a real build uses Quarkus' default JVM
 * base image on JDK 17, and {@code eclipse-temurin:25.0.3_9-jdk-noble} on JDK 25 (the pom's aot profile), whose
 * stand-in here is {@link JdkBaseImage}. With a JDK 25 and root, the JDK-25 image also gets its AOT cache as
 * {@code hack/image-aot.sh} adds it, and the cache must fit the image; otherwise that part is skipped.
 */
class JvmImageTest {

    static LocalRegistry registry;

    @BeforeAll
    static void registry() {
        registry = LocalRegistry.start(LocalRegistry.Options.plain("jib-registry"));
    }

    @AfterAll
    static void stop() {
        registry.stop();
    }

    @Test
    void jibPushesARunnableImageConfig() throws Exception {
        Path work = Files.createDirectories(SharedFiles.projectDir().resolve("target/jib-test"));
        String base = registry.hostPort() + "/rekon-test/base:1";
        pushEmptyBase(work, base);
        jib(work.resolve("project"), Map.of(), base, "test");

        ImageReads image = new ImageReads(registry.hostPort(), "test");
        JsonNode config = image.config();
        assertStartsWithStartSh(image.layerFiles(), config);
        assertTrue(config.path("ExposedPorts").has("8080/tcp"), "exposed ports " + config.path("ExposedPorts"));
        assertEquals("185", config.path("User").asText(), "a numeric non-root user, for runAsNonRoot");
        JsonNode labels = config.path("Labels");
        assertEquals("rekon", labels.path("org.opencontainers.image.title").asText(), "labels " + labels);
        assertEquals("Apache-2.0", labels.path("org.opencontainers.image.licenses").asText(), "labels " + labels);
    }

    /**
     * Built on a JDK 25 (the pom's aot profile) on a JDK base image, then {@code hack/image-aot.sh}'s step: the
     * pushed image carries {@code rekon.aot} and {@code rekon.aot.jvm}, still starts with start.sh, and the JVM
     * of the image started on the image's files with {@code -XX:AOTMode=on} (which refuses to start when the
     * cache does not fit) starts the application with it.
     */
    @Test
    void jdk25ImageCarriesAnAotCacheThatFitsIt() throws Exception {
        Path jdk = JdkBaseImage.jdk25();
        assumeTrue(jdk != null, "no JDK 25 or later (rekon.jdk25, JAVA_HOME, the running JVM, /usr/lib/jvm): "
                + "no AOT cache to check");
        assumeTrue("root".equals(System.getProperty("user.name")),
                "not root: unpacking an image and running in its chroot (hack/image-aot.sh) need root");
        Path work = Files.createDirectories(SharedFiles.projectDir().resolve("target/jib-test"));
        String base = registry.hostPort() + "/rekon-test/jdk-base:1";
        JdkBaseImage.push(jdk, work, base);
        jib(work.resolve("project-aot"), Map.of("JAVA_HOME", jdk.toString()), base, "aot");
        String image = registry.hostPort() + "/rekon/rekon:aot";
        ImageAot.addCache(image, image, true, work.resolve("image-aot"));

        ImageReads pushed = new ImageReads(registry.hostPort(), "aot");
        List<String> files = pushed.layerFiles();
        assertStartsWithStartSh(files, pushed.config());
        assertTrue(files.contains("home/jboss/rekon.aot") && files.contains("home/jboss/rekon.aot.jvm"),
                "the cache is in the image: " + files.stream().filter(f -> f.startsWith("home/jboss/r")).toList());
        assertCacheFits(image, work.resolve("image-check"));
    }

    /** Runs the pushed image's entrypoint on its own files, as a container would, with the cache required. */
    private static void assertCacheFits(String image, Path work) throws Exception {
        Commands.run(work.getParent(), "rm", "-rf", work.toString());
        Files.createDirectories(work);
        Commands.run(work, "skopeo", "copy", "--quiet", "--src-tls-verify=false", "docker://" + image,
                "oci:" + work.resolve("oci") + ":image");
        ImageRoot root = ImageRoot.unpack(work.resolve("oci"), "image", work.resolve("bundle"));
        Path log = work.resolve("rekon.log");
        App app = App.inImage(root, Map.of("JAVA_OPTS", "-XX:MaxRAM=512m -XX:AOTMode=on -Xlog:aot"),
                LocalCluster.get().kubeconfigFile(), log);
        try {
            Await.until("the application to start or exit", Duration.ofSeconds(60),
                    () -> !app.isAlive() || read(log).contains("started in"));
        } finally {
            app.stop();
        }
        String out = read(log);
        assertTrue(out.contains("started in") && out.contains("Using AOT-linked classes: true"),
                "the image's JVM starts the application with the cache (-XX:AOTMode=on): " + out.lines()
                        .filter(l -> !l.contains("[info]") || l.contains("AOT-linked")).limit(20).toList());
    }

    private static void assertStartsWithStartSh(List<String> files, JsonNode config) {
        String entrypoint = config.path("Entrypoint").toString();
        assertEquals("[\"/bin/bash\",\"/opt/rekon/start.sh\"]", entrypoint, "the production start, hack/start.sh");
        assertTrue(files.contains("opt/rekon/start.sh"), "start.sh is in the image");
        assertEquals("/home/jboss", config.path("WorkingDir").asText(), "start.sh finds quarkus-run.jar there");
    }

    /** Quarkus' Jib build of a copy of the project, pushed as rekon/rekon:{@code tag}. */
    private static void jib(Path copy, Map<String, String> env, String base, String tag) throws Exception {
        Commands.run(ProjectCopy.of(copy), env, "./mvnw", "-B", "-q", "package", "-DskipTests",
                "-Dquarkus.container-image.build=true", "-Dquarkus.container-image.push=true",
                "-Dquarkus.container-image.registry=" + registry.hostPort(),
                "-Dquarkus.container-image.insecure=true", "-Dquarkus.container-image.tag=" + tag,
                "-Dquarkus.jib.base-jvm-image=" + base);
    }

    private static String read(Path file) {
        try {
            return Files.isRegularFile(file) ? Files.readString(file) : "";
        } catch (IOException e) {
            return "";
        }
    }

    /** An image with no layers: enough for Jib to build on, offline. */
    private static void pushEmptyBase(Path work, String target) throws IOException, InterruptedException {
        Path layout = work.resolve("base-oci");
        if (!Files.isDirectory(layout)) {
            Commands.run(work, "umoci", "init", "--layout", layout.toString());
            Commands.run(work, "umoci", "new", "--image", layout + ":base");
        }
        Commands.run(work, "skopeo", "copy", "--quiet", "--dest-tls-verify=false", "oci:" + layout + ":base",
                "docker://" + target);
    }
}
