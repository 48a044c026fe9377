package dev.rekon.packaging;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.rekon.testing.LocalCluster;
import dev.rekon.testing.RekonTestResource;
import dev.rekon.testing.SharedFiles;
import io.quarkus.funqy.Funq;
import io.quarkus.funqy.knative.events.CloudEventMapping;
import io.quarkus.funqy.knative.events.EventAttribute;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.specification.RequestSpecification;

/**
 * The routing contract between {@code knative/eventing/triggers.yaml} and the Funqy functions: every sample
 * event of the README and docs, and every (type, kind) a function declares, is matched by exactly one Trigger
 * and taken by exactly one function (never Funqy's 404 or 409); Rekon's replies match no Trigger.
 */
@QuarkusTest
@QuarkusTestResource(value = RekonTestResource.class, restrictToAnnotatedClass = false)
class EventRoutingTest {

    static final List<String> API_SERVER_TYPES = List.of("dev.knative.apiserver.resource.add",
            "dev.knative.apiserver.resource.update", "dev.knative.apiserver.resource.delete",
            "dev.knative.apiserver.ref.add", "dev.knative.apiserver.ref.update", "dev.knative.apiserver.ref.delete");
    static final ObjectMapper JSON = new ObjectMapper();

    /** What one function accepts: an exact type, or any type with the extension kind. */
    record Accepts(String function, String type, String kind, String replyType) {
    }

    @Test
    void everyDocumentedEventReachesExactlyOneTriggerAndOneFunction() {
        List<DocumentedEvents.Sample> samples = DocumentedEvents.all();
        Set<String> types = samples.stream().map(DocumentedEvents.Sample::type).collect(Collectors.toSet());
        assertTrue(types.containsAll(Set.of("dev.knative.apiserver.resource.update", "dev.rekon.buildpacks.published",
                "dev.rekon.modules.release", "harbor.artifact.pushed")), "documented event types found: " + types);
        for (DocumentedEvents.Sample s : samples) {
            assertOneTrigger(s.attributes(), s.toString());
            int status = post(s).extract().statusCode();
            assertFalse(status == 404 || status == 409, s + " was answered " + status);
        }
    }

    @Test
    void everyTypeAndKindAFunctionDeclaresReachesExactlyOneTriggerAndThatFunction() {
        List<Accepts> functions = functions();
        assertTrue(functions.size() >= 14, "functions found: " + functions);
        for (Accepts f : functions) {
            for (String type : f.kind() == null ? List.of(f.type()) : API_SERVER_TYPES) {
                Map<String, String> attributes = new LinkedHashMap<>(Map.of("type", type, "source", "test"));
                if (f.kind() != null) {
                    attributes.put("kind", f.kind());
                }
                assertOneTrigger(attributes, f.function());
                var answer = given().headers(headers(attributes)).contentType("application/json").body("{}")
                        .post("/").then().extract();
                int status = answer.statusCode();
                String replyType = answer.header("ce-type");
                assertFalse(status == 404 || status == 409, f + " with " + type + " was answered " + status);
                if (status == 200) {
                    assertEquals(f.replyType(), replyType, f.function() + " answered another function's reply type");
                }
            }
        }
    }

    @Test
    void repliesMatchNoTrigger() {
        for (Accepts f : functions()) {
            Map<String, String> reply = Map.of("type", f.replyType(), "source", "rekon");
            assertEquals(List.of(), matching(reply, false), "reply " + f.replyType() + " would loop back");
        }
    }

    private static void assertOneTrigger(Map<String, String> attributes, String what) {
        for (boolean legacy : List.of(false, true)) {
            List<String> names = matching(attributes, legacy);
            assertEquals(1, names.size(), what + " " + attributes + " matches Triggers " + names
                    + (legacy ? " (filter.attributes only)" : " (filters)"));
        }
    }

    static List<String> matching(Map<String, String> attributes, boolean legacy) {
        return triggers().stream().filter(t -> TriggerFilters.matches(t, attributes, legacy))
                .map(t -> t.at("/metadata/name").asText()).toList();
    }

    static List<JsonNode> triggers() {
        var client = LocalCluster.get().adminClient();
        return Manifests.load(client, Manifests.dir().resolve("eventing/triggers.yaml")).stream()
                .filter(i -> "Trigger".equals(i.getKind())).map(i -> (JsonNode) JSON.valueToTree(i)).toList();
    }

    private static io.restassured.response.ValidatableResponse post(DocumentedEvents.Sample s) {
        String data = s.data() == null ? "{}" : s.data();
        RequestSpecification request = given();
        if (s.structured()) {
            return request.contentType("application/cloudevents+json").body(data).post("/").then();
        }
        Map<String, String> attributes = new LinkedHashMap<>(s.attributes());
        attributes.put("id", UUID.randomUUID().toString());
        return request.headers(headers(attributes)).contentType("application/json").body(data).post("/").then();
    }

    private static Map<String, Object> headers(Map<String, String> attributes) {
        Map<String, Object> h = new LinkedHashMap<>();
        h.put("ce-specversion", "1.0");
        h.put("ce-id", UUID.randomUUID().toString());
        h.put("ce-source", "test");
        attributes.forEach((k, v) -> h.put("ce-" + k, v));
        return h;
    }

    /** Every @Funq method with its CloudEvent mapping, read from the compiled application classes. */
    static List<Accepts> functions() {
        Path classes = SharedFiles.projectDir().resolve("target/classes");
        List<Accepts> out = new ArrayList<>();
        try (Stream<Path> files = Files.walk(classes)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".class")).toList()) {
                String name = classes.relativize(f).toString().replace('/', '.').replaceAll("\\.class$", "");
                for (Method m : Class.forName(name, false, EventRoutingTest.class.getClassLoader()).getDeclaredMethods()) {
                    Funq funq = m.getAnnotation(Funq.class);
                    CloudEventMapping mapping = m.getAnnotation(CloudEventMapping.class);
                    if (funq == null || mapping == null) {
                        continue;
                    }
                    String kind = null;
                    for (EventAttribute a : mapping.attributes()) {
                        if (a.name().equals("kind")) {
                            kind = a.value();
                        }
                    }
                    String fn = funq.value().isEmpty() ? m.getName() : funq.value();
                    out.add(new Accepts(fn, mapping.trigger(), kind, mapping.responseType()));
                }
            }
        } catch (IOException | ClassNotFoundException e) {
            throw new IllegalStateException(e);
        }
        return out;
    }
}
