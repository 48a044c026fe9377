package dev.rekon.packaging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;

import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.rekon.testing.LocalRegistry;
import dev.rekon.testing.SharedFiles;

/**
 * The JVM container image as users build it: Quarkus' Jib extension ({@code ./mvnw package
 * -Dquarkus.container-image.build=true -Dquarkus.container-image.push=true}) runs on a copy of the project
 * (so the build under test does not touch this run's target/), pushes to a real local registry over plain
 * HTTP, and the image config read back over the registry API has the entrypoint, port, user and labels
 * the Knative Service relies on, and the production start {@code hack/start.sh} as the entrypoint. The base
 * image is a small local one, since tests cannot pull from the internet; a real build uses Quarkus' default JVM
 * base image on JDK 17, and {@code eclipse-temurin:25.0.3_9-jdk-noble} on JDK 25 (the pom's aot profile).
 */
class JvmImageTest {

    static final ObjectMapper JSON = new ObjectMapper();
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
        Path project = copyProject(work.resolve("project"));
        run(project, "./mvnw", "-B", "-q", "package", "-DskipTests",
                "-Dquarkus.container-image.build=true", "-Dquarkus.container-image.push=true",
                "-Dquarkus.container-image.registry=" + registry.hostPort(),
                "-Dquarkus.container-image.insecure=true", "-Dquarkus.container-image.tag=test",
                "-Dquarkus.jib.base-jvm-image=" + base);

        JsonNode manifest = get("/v2/rekon/rekon/manifests/test",
                "application/vnd.oci.image.manifest.v1+json, application/vnd.docker.distribution.manifest.v2+json");
        JsonNode config = get("/v2/rekon/rekon/blobs/" + manifest.at("/config/digest").asText(), "*/*").path("config");

        String entrypoint = config.path("Entrypoint").toString();
        assertEquals("[\"/bin/bash\",\"/opt/rekon/start.sh\"]", entrypoint, "the production start, hack/start.sh");
        assertTrue(layerFiles(manifest).contains("opt/rekon/start.sh"), "start.sh is in the image");
        assertEquals("/home/jboss", config.path("WorkingDir").asText(), "start.sh finds quarkus-run.jar there");
        assertTrue(config.path("ExposedPorts").has("8080/tcp"), "exposed ports " + config.path("ExposedPorts"));
        assertEquals("185", config.path("User").asText(), "a numeric non-root user, for runAsNonRoot");
        JsonNode labels = config.path("Labels");
        assertEquals("rekon", labels.path("org.opencontainers.image.title").asText(), "labels " + labels);
        assertEquals("Apache-2.0", labels.path("org.opencontainers.image.licenses").asText(), "labels " + labels);
    }

    /** The paths of every file in the image's layers, read from the registry. */
    private static List<String> layerFiles(JsonNode manifest) throws IOException, InterruptedException {
        List<String> files = new ArrayList<>();
        for (JsonNode layer : manifest.path("layers")) {
            HttpResponse<InputStream> r = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NORMAL).build()
                    .send(HttpRequest.newBuilder(URI.create("http://" + registry.hostPort() + "/v2/rekon/rekon/blobs/"
                            + layer.path("digest").asText())).build(), HttpResponse.BodyHandlers.ofInputStream());
            try (TarArchiveInputStream tar = new TarArchiveInputStream(new GZIPInputStream(r.body()))) {
                for (TarArchiveEntry e = tar.getNextEntry(); e != null; e = tar.getNextEntry()) {
                    files.add(e.getName().replaceFirst("^\\.?/", ""));
                }
            }
        }
        return files;
    }

    private static JsonNode get(String path, String accept) throws IOException, InterruptedException {
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://" + registry.hostPort() + path)).header("Accept", accept).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), path + ": " + r.body());
        return JSON.readTree(r.body());
    }

    /** An image with no layers: enough for Jib to build on, offline. */
    private static void pushEmptyBase(Path work, String target) throws IOException, InterruptedException {
        Path layout = work.resolve("base-oci");
        if (!Files.isDirectory(layout)) {
            run(work, "umoci", "init", "--layout", layout.toString());
            run(work, "umoci", "new", "--image", layout + ":base");
        }
        run(work, "skopeo", "copy", "--quiet", "--dest-tls-verify=false", "oci:" + layout + ":base", "docker://" + target);
    }

    private static Path copyProject(Path to) throws IOException {
        Path from = SharedFiles.projectDir();
        for (String part : List.of("pom.xml", "mvnw", ".mvn", "src/main")) {
            try (Stream<Path> files = Files.walk(from.resolve(part))) {
                for (Path f : files.toList()) {
                    Path dest = to.resolve(from.relativize(f).toString());
                    if (Files.isDirectory(f)) {
                        Files.createDirectories(dest);
                    } else {
                        Files.createDirectories(dest.getParent());
                        Files.copy(f, dest, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                                java.nio.file.StandardCopyOption.COPY_ATTRIBUTES);
                    }
                }
            }
        }
        return to;
    }

    private static void run(Path dir, String... command) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(command));
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(600, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException(String.join(" ", command) + " failed: " + out);
        }
    }
}
