package dev.rekon.knative;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import dev.rekon.testing.RekonTestResource;
import dev.rekon.testing.SharedFiles;
import dev.rekon.testing.knative.KnativeBinaries;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The CloudEvents conformance tool (github.com/cloudevents/conformance v0.4.1, {@code cloudevents invoke}) sends its
 * bundled v1.0 examples to the functions, in binary and in structured mode: each is answered 2xx or a 4xx, never
 * 5xx (which Knative would redeliver). A batch ({@code application/cloudevents-batch+json}) gets a 4xx saying
 * batches are not accepted.
 */
@QuarkusTest
@QuarkusTestResource(value = RekonTestResource.class, restrictToAnnotatedClass = false)
class CloudEventsConformanceTest {

    private static final Pattern STATUS = Pattern.compile("expected 200 level response, got (\\d{3})");

    @Test
    void theBundledExamplesGetNo5xxInEitherMode() throws Exception {
        Path examples = KnativeBinaries.dir().resolve("conformance-yaml");
        Path work = Files.createDirectories(SharedFiles.projectDir().resolve("target/knative/conformance"));
        java.util.Map<String, Integer> answers = new java.util.TreeMap<>();
        int n = 0;
        for (Path f : List.of(examples.resolve("v1.0/v1_minimum.yaml"), examples.resolve("v1.yaml"))) {
            for (String mode : List.of("binary", "structured")) {
                for (String event : inMode(Files.readString(f), mode)) {
                    // One event per run: the tool reports each failure twice and only failures.
                    Path file = work.resolve("event-" + (n++) + ".yaml");
                    Files.writeString(file, event);
                    String output = invoke(file);
                    Matcher m = STATUS.matcher(output);
                    String status = m.find() ? m.group(1) : output.isBlank() ? "2xx" : "failed";
                    if (status.equals("failed") && mode.equals("structured") && output.contains("invalid character")) {
                        // The tool embeds structured data as JSON and cannot send a text or XML example so.
                        answers.merge(mode + " not sendable by the tool", 1, Integer::sum);
                        continue;
                    }
                    assertTrue(status.equals("2xx") || status.startsWith("4"), mode + " " + event + "\nanswered "
                            + status + ":\n" + output);
                    answers.merge(mode + " " + status, 1, Integer::sum);
                }
            }
        }
        assertTrue(n >= 16, "examples sent: " + n);
        System.out.printf("conformance: %d examples sent, answered %s%n", n, answers);
    }

    @Test
    void aBatchIsRefusedSayingBatchesAreNotAccepted() {
        given().contentType("application/cloudevents-batch+json")
                .body("[{\"specversion\":\"1.0\",\"id\":\"b-1\",\"source\":\"/test\",\"type\":\"dev.rekon.resync\","
                        + "\"datacontenttype\":\"application/json\",\"data\":{\"scope\":\"rollouts\"}}]")
                .post("/").then().statusCode(415).body(containsString("batch"));
    }

    /** The documents of a YAML file, each with its Mode set. */
    static List<String> inMode(String yaml, String mode) {
        List<String> out = new ArrayList<>();
        for (String doc : yaml.split("(?m)^---\\s*$")) {
            String body = doc.replaceAll("(?m)^Mode:.*$\\n?", "").strip();
            if (body.contains("ContextAttributes")) {
                out.add("Mode: " + mode + "\n" + body + "\n");
            }
        }
        return out;
    }

    private static String invoke(Path file) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(KnativeBinaries.program("cloudevents").toString(), "invoke",
                "http://127.0.0.1:" + RekonTestResource.port() + "/", "-f", file.toString()).redirectErrorStream(true)
                .start();
        String output = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(1, TimeUnit.MINUTES), "cloudevents invoke did not finish");
        return output;
    }
}
