package dev.rekon.status;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.rekon.testing.LocalCluster;
import dev.rekon.testing.RekonTestResource;
import dev.rekon.testing.SharedFiles;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The status page in a real browser: Debian's headless {@code chromium} loads {@code GET /} from the running
 * application; the rendered DOM has one row per object of the scene, the drifted ImageDeploy marked as a problem,
 * and every reason shown. The screenshot is saved as {@code target/status-page.png}.
 */
@QuarkusTest
@QuarkusTestResource(value = RekonTestResource.class, restrictToAnnotatedClass = false)
class StatusBrowserTest {

    static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    static final List<String> FLAGS = List.of("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
            "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
            "--hide-scrollbars");
    static final List<String> OBJECTS = List.of("ImageDeploy demo/hello", "ImageDeploy demo/hello-drifted",
            "ImageDeploy demo/hello-paused", "ImageDeploy demo/world", "Image demo/hello", "Image demo/world",
            "Builder default/sample-builder", "Module kpack/regular");

    @BeforeEach
    void scene() {
        StatusScene.create(LocalCluster.get().adminClient());
        StatusPageTest.settledReport();
    }

    @Test
    void theRenderedPageHasOneRowPerObjectAndMarksTheDriftedOne() throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(CHROMIUM), "Debian's chromium is not installed; hack/control-plane.sh "
                + "(run by hack/test.sh) installs it");
        String url = "http://127.0.0.1:" + RekonTestResource.port() + "/";
        String dom = chromium("--dump-dom", url);
        List<String> rows = new ArrayList<>();
        Matcher m = Pattern.compile("<tr [^>]*data-object=\"([^\"]+)\"").matcher(dom);
        while (m.find()) {
            rows.add(m.group(1));
        }
        for (String object : OBJECTS) {
            assertEquals(1, Collections.frequency(rows, object), object + " among the rows " + rows);
        }
        String drifted = row(dom, "ImageDeploy demo/hello-drifted");
        assertTrue(drifted.matches("(?s)<tr [^>]*class=\"[^\"]*problem[^\"]*\"[^>]*data-state=\"Drifted\".*"), drifted);
        assertTrue(drifted.contains("ManualChange") && drifted.contains(StatusScene.HOTFIX), drifted);
        assertTrue(row(dom, "ImageDeploy demo/world").contains("NewerBuild"));
        assertTrue(row(dom, "ImageDeploy demo/hello-paused").contains("is suspended (spec.suspend: true)"));
        assertTrue(row(dom, "Module kpack/regular").contains("MajorStepTooLarge"));
        assertTrue(row(dom, "Builder default/sample-builder").contains("state-False"));
        assertTrue(dom.contains("id=\"refresh\""), "the refresh button");

        Path png = SharedFiles.projectDir().resolve("target/status-page.png");
        Files.deleteIfExists(png);
        chromium("--window-size=1400,1500", "--screenshot=" + png, url);
        assertTrue(Files.size(png) > 10_000, "a screenshot in " + png);
    }

    /** The {@code <tr>} of one object, up to its end. */
    static String row(String dom, String object) {
        Matcher m = Pattern.compile("(?s)<tr [^>]*data-object=\"" + Pattern.quote(object) + "\".*?</tr>").matcher(dom);
        assertTrue(m.find(), "a row for " + object);
        return m.group();
    }

    /** Runs chromium with a fresh profile and returns what it printed. */
    static String chromium(String... args) throws IOException, InterruptedException {
        Path profile = Files.createTempDirectory("rekon-chromium-");
        List<String> cmd = new ArrayList<>(List.of(CHROMIUM.toString()));
        cmd.addAll(FLAGS);
        cmd.add("--user-data-dir=" + profile);
        cmd.addAll(List.of(args));
        Path out = Files.createTempFile("rekon-chromium-", ".out");
        Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        try {
            assertTrue(p.waitFor(180, TimeUnit.SECONDS), "chromium finished within 180 s");
            assertEquals(0, p.exitValue(), "chromium's exit code");
            return Files.readString(out, StandardCharsets.UTF_8);
        } finally {
            p.destroyForcibly();
            Files.deleteIfExists(out);
            try (var files = Files.walk(profile)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
    }
}
