package dev.rekon.testing;

import static io.restassured.RestAssured.given;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

import io.restassured.response.ValidatableResponse;
import io.vertx.core.json.JsonObject;

/** Posts CloudEvents to the application's root path the way a Knative Trigger delivers them. */
public final class Events {

    private Events() {
    }

    /** Binary mode: attributes and extensions as ce-* headers, the data as the body. */
    public static ValidatableResponse binary(String type, Map<String, String> extensions, String data) {
        var request = given().header("ce-id", UUID.randomUUID().toString()).header("ce-specversion", "1.0")
                .header("ce-type", type).header("ce-source", "https://127.0.0.1:6443").contentType("application/json");
        for (var e : extensions.entrySet()) {
            request = request.header("ce-" + e.getKey(), e.getValue());
        }
        return request.body(data).post("/").then();
    }

    /** Structured mode: the whole event as one JSON document. */
    public static ValidatableResponse structured(String type, Map<String, String> extensions, String data) {
        Map<String, Object> event = new LinkedHashMap<>();
        event.put("specversion", "1.0");
        event.put("id", UUID.randomUUID().toString());
        event.put("type", type);
        event.put("source", "https://127.0.0.1:6443");
        event.put("datacontenttype", "application/json");
        event.putAll(extensions);
        event.put("data", new JsonObject(data).getMap());
        return given().contentType("application/cloudevents+json").body(new JsonObject(event).encode()).post("/").then();
    }

    /** The extensions an ApiServerSource sets for an object. */
    public static Map<String, String> apiServerExtensions(String apiVersion, String kind, String namespace, String name) {
        return Map.of("apiversion", apiVersion, "kind", kind, "namespace", namespace, "name", name);
    }
}
