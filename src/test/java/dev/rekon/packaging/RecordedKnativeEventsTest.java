package dev.rekon.packaging;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.stream.Stream;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import com.fasterxml.jackson.databind.JsonNode;

import dev.rekon.testing.RekonTestResource;
import dev.rekon.testing.SharedFiles;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Events recorded from Knative's own adapters (ApiServerSource in Resource and Reference mode, PingSource), as
 * the test broker received them in the end-to-end tests (src/test/resources/knative/apiserversource): each is
 * matched by exactly one Trigger, under {@code filters} and {@code filter.attributes}, and the function it reaches
 * answers it 200 with its reply type, never "invalid". Every kind the shipped sources list has one.
 */
@QuarkusTest
@QuarkusTestResource(value = RekonTestResource.class, restrictToAnnotatedClass = false)
class RecordedKnativeEventsTest {

    static final Path DIR = SharedFiles.projectDir().resolve("src/test/resources/knative/apiserversource");

    @Test
    void everyKindTheSourcesListHasARecordedEvent() {
        Set<String> kinds = new TreeSet<>();
        recorded().forEach(f -> kinds.add(f.getFileName().toString().split("\\.")[0]));
        assertTrue(kinds.containsAll(Set.of("Image", "ImageDeploy", "Buildpack", "ClusterBuildpack", "Builder",
                "ClusterBuilder", "ModuleReleaseMeta", "ModuleTemplate", "Kyma", "DeclaredState", "Deployment",
                "StatefulSet", "DaemonSet", "Job", "no-kind")), "recorded kinds: " + kinds);
        assertTrue(recorded().stream().anyMatch(f -> f.toString().contains(".ref.")), "Reference mode recorded");
    }

    @TestFactory
    Stream<DynamicTest> eachRecordedEventReachesOneFunctionWhichAnswersIt() {
        return recorded().stream().map(f -> DynamicTest.dynamicTest(f.getFileName().toString(), () -> replay(f)));
    }

    private static void replay(Path file) throws IOException {
        JsonNode recorded = EventRoutingTest.JSON.readTree(file.toFile());
        Map<String, String> attributes = new LinkedHashMap<>();
        recorded.path("attributes").fields().forEachRemaining(e -> attributes.put(e.getKey(), e.getValue().asText()));
        for (boolean legacy : List.of(false, true)) {
            assertEquals(1, EventRoutingTest.matching(attributes, legacy).size(), file.getFileName() + " matches "
                    + EventRoutingTest.matching(attributes, legacy) + (legacy ? " (filter.attributes)" : " (filters)"));
        }
        Map<String, Object> headers = new LinkedHashMap<>();
        attributes.forEach((k, v) -> {
            if (!k.equals("datacontenttype")) {
                headers.put("ce-" + k, k.equals("id") ? UUID.randomUUID().toString() : v);
            }
        });
        var answer = given().headers(headers).contentType(attributes.getOrDefault("datacontenttype", "application/json"))
                .body(recorded.path("data").toString()).post("/").then().extract();
        assertEquals(200, answer.statusCode(), file.getFileName() + ": " + answer.body().asString());
        assertTrue(answer.header("ce-type").startsWith("dev.rekon."), "a reply: " + answer.header("ce-type"));
        assertNotEquals("invalid", answer.jsonPath().getString("outcome"), answer.body().asString());
    }

    private static List<Path> recorded() {
        try (Stream<Path> files = Files.list(DIR)) {
            return new ArrayList<>(files.filter(f -> f.toString().endsWith(".json")).sorted().toList());
        } catch (IOException e) {
            throw new IllegalStateException("cannot list " + DIR, e);
        }
    }
}
