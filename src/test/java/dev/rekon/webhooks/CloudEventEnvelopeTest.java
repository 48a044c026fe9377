package dev.rekon.webhooks;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.allOf;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import dev.rekon.bench.Fuzz;
import dev.rekon.bench.Poster;
import dev.rekon.testing.RekonTestResource;
import io.cloudevents.CloudEvent;
import io.cloudevents.core.builder.CloudEventBuilder;
import io.cloudevents.http.HttpMessageFactory;
import io.cloudevents.jackson.JsonFormat;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.ValidatableResponse;

/**
 * What a sender can get wrong in a CloudEvent's envelope is answered 4xx with what to fix, never 5xx: events are
 * written with the CloudEvents SDK's builder and HTTP binding (binary and structured), then spoiled one way each.
 */
@QuarkusTest
class CloudEventEnvelopeTest {

    /** A request as the SDK's HTTP binding writes it. */
    record Written(Map<String, String> headers, byte[] body) {
        ValidatableResponse post() {
            return given().headers(headers).body(body).when().post("/").then();
        }

        Written without(String header) {
            Map<String, String> h = new LinkedHashMap<>(headers);
            h.remove(header);
            return new Written(h, body);
        }

        Written with(String header, String value) {
            Map<String, String> h = new LinkedHashMap<>(headers);
            h.put(header, value);
            return new Written(h, body);
        }
    }

    static CloudEvent event(String data) {
        return CloudEventBuilder.v1().withId(UUID.randomUUID().toString()).withSource(URI.create("/envelope-test"))
                .withType("dev.rekon.modules.wake").withData("application/json", data.getBytes(StandardCharsets.UTF_8))
                .build();
    }

    static Written binary(CloudEvent event) {
        Map<String, String> headers = new LinkedHashMap<>();
        byte[][] body = new byte[1][];
        HttpMessageFactory.createWriter(headers::put, b -> body[0] = b).writeBinary(event);
        return new Written(headers, body[0]);
    }

    static Written structured(CloudEvent event) {
        Map<String, String> headers = new LinkedHashMap<>();
        byte[][] body = new byte[1][];
        HttpMessageFactory.createWriter(headers::put, b -> body[0] = b).writeStructured(event, new JsonFormat());
        return new Written(headers, body[0]);
    }

    @Test
    void wellFormedEventsInBothModesReachTheFunction() {
        CloudEvent event = event("{\"module\": \"envelope-test\"}");
        binary(event).post().statusCode(200).body("reason", equalTo("ModuleNotInstalled"));
        structured(event).post().statusCode(200).body("data.reason", equalTo("ModuleNotInstalled"));
    }

    @Test
    void anUnreadableContentTypeIs415NamingTheAcceptedOnes() {
        binary(event("{\"module\": \"x\"}")).with("Content-Type", "application/xml").post().statusCode(415)
                .body("error", equalTo("UnsupportedMediaType"))
                .body("message", allOf(containsString("application/json"), containsString("application/cloudevents+json")));
    }

    @Test
    void aMissingOrEmptyRequiredAttributeIs400NamingIt() {
        Written ok = binary(event("{\"module\": \"x\"}"));
        for (String attribute : new String[] { "id", "source", "type", "specversion" }) {
            ok.without("ce-" + attribute).post().statusCode(400).body("message", containsString("ce-" + attribute + " is missing"));
            ok.with("ce-" + attribute, "").post().statusCode(400);
        }
        String withoutId = new String(structured(event("{}")).body(), StandardCharsets.UTF_8).replaceFirst("\"id\":\"[^\"]*\",?", "");
        given().contentType("application/cloudevents+json").body(withoutId).post("/").then().statusCode(400)
                .body("message", containsString("Missing mandatory id attribute"));
    }

    @Test
    void aNullOptionalAttributeIs400NamingIt() {
        // Found by the fuzz pass: Funqy answered 500 to "datacontenttype": null, so Knative would redeliver it forever.
        String nulled = new String(structured(event("{}")).body(), StandardCharsets.UTF_8)
                .replace("\"datacontenttype\":\"application/json\"", "\"datacontenttype\":null");
        given().contentType("application/cloudevents+json").body(nulled).post("/").then().statusCode(400)
                .body("message", containsString("'datacontenttype' is null"));
    }

    @Test
    void anUnknownSpecVersionIs400() {
        binary(event("{}")).with("ce-specversion", "2.0").post().statusCode(400).body("message", containsString("send 1.0"));
        String v2 = new String(structured(event("{}")).body(), StandardCharsets.UTF_8).replace("\"1.0\"", "\"2.0\"");
        given().contentType("application/cloudevents+json").body(v2).post("/").then().statusCode(400)
                .body("message", containsString("Invalid specversion: 2.0"));
    }

    @Test
    void dataThatIsNotAnObjectIs400() {
        binary(event("[1]")).post().statusCode(400).body("message", containsString("must be a JSON object, not an array"));
        structured(event("42")).post().statusCode(400).body("message", containsString("must be a JSON object, not number"));
    }

    @Test
    void noEnvelopeMistakeGetsA5xx() {
        Fuzz.Result result = new Fuzz(new Poster(RekonTestResource.port()), 18).run(3);
        assertEquals(0, result.fiveXx(), String.join("\n", result.examples()));
    }
}
