package dev.rekon.web;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpRequest;
import java.util.List;

import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

import dev.rekon.bench.Poster;
import dev.rekon.bench.Sweep;
import io.quarkus.runtime.configuration.MemorySize;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.specification.RequestSpecification;

/**
 * No input is a 5xx: the shapes the chaos run's fuzz pass found (a binary CloudEvent with neither Content-Type nor
 * body; a form body over 2 KB on {@code /}, a webhook and {@code /status}), then the whole {@link Sweep} of content
 * types × body sizes (up to just over each configured limit) × endpoints, the same on every run.
 */
@QuarkusTest
class InputSweepTest {

    static final String FORM = "application/x-www-form-urlencoded";

    static RequestSpecification binaryEvent() {
        return given().header("ce-specversion", "1.0").header("ce-id", "no-data").header("ce-source", "sweep")
                .header("ce-type", "dev.rekon.image.built");
    }

    @Test
    void aBinaryEventWithoutContentTypeOrBodyIsRefusedByTheFunctionNotA500() {
        // java.net.http, since RestAssured always sends a Content-Type
        Poster.Answer a = new Poster(RestAssured.port).send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                + RestAssured.port + "/")).header("ce-specversion", "1.0").header("ce-id", "no-data")
                .header("ce-source", "sweep").header("ce-type", "dev.rekon.image.built")
                .POST(HttpRequest.BodyPublishers.noBody()).build());
        assertEquals(400, a.status(), a.body());
        assertTrue(a.body().contains("\"InvalidEvent\"") && !a.body().contains("Don't know"), a.body());
    }

    @Test
    void aLongFormBodyIsRefusedInRekonsWordsOnEveryEndpoint() {
        String longForm = "field=" + "x".repeat(3 * 1024);
        binaryEvent().contentType(FORM).body(longForm).post("/").then().statusCode(415)
                .body("error", equalTo("UnsupportedMediaType")).body("message", containsString(FORM));
        given().contentType(FORM).header("Authorization", "Bearer test-token").body(longForm)
                .post("/webhooks/distribution").then().statusCode(415).body("error", equalTo("UnsupportedMediaType"));
        // /status serves GET only: POST was Quarkus' HTML 404 with a short body, a 500 with a long one
        given().contentType(FORM).body(longForm).post("/status").then().statusCode(405).header("Allow", "GET")
                .body("error", equalTo("MethodNotAllowed"));
    }

    @Test
    void aShortFormBodyIsStill415() {
        binaryEvent().contentType(FORM).body("a=b").post("/").then().statusCode(415);
        given().contentType(FORM).header("Authorization", "Bearer test-token").body("a=b")
                .post("/webhooks/distribution").then().statusCode(415);
    }

    @Test
    void aWebhookStillChecksItsTokenBeforeItsContentType() {
        given().contentType(FORM).header("Authorization", "Bearer wrong").body("field=" + "x".repeat(4096))
                .post("/webhooks/distribution").then().statusCode(401).body("error", equalTo("Unauthorized"));
    }

    @Test
    void noContentTypeSizeOrEndpointGetsA5xxOrFrameworkText() throws InterruptedException {
        int http = (int) ConfigProvider.getConfig().getValue("quarkus.http.limits.max-body-size", MemorySize.class)
                .asLongValue();
        int webhooks = ConfigProvider.getConfig().getValue("rekon.webhooks.max-body-bytes", Integer.class);
        awaitStatusLoaded();
        Sweep sweep = new Sweep(new Poster(RestAssured.port));
        List<String> failures = sweep.run(List.of(0, 1, 3 * 1024, 64 * 1024, webhooks - 1, webhooks + 1, http - 1,
                http + 1));
        assertEquals(List.of(), failures, sweep.requests() + " requests; the first failures:\n" + String.join("\n", failures));
    }

    /** {@code GET /status} answers 503 (Retry-After) until its watches have listed; that is not the sender's doing. */
    private static void awaitStatusLoaded() {
        dev.rekon.testing.Await.until("GET /status to answer other than 503 (its watches listed)",
                java.time.Duration.ofSeconds(60), () -> given().get("/status").statusCode() != 503);
    }
}
