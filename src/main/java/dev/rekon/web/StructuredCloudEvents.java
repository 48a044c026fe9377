package dev.rekon.web;

import java.util.Locale;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;

import io.cloudevents.CloudEvent;
import io.cloudevents.CloudEventData;
import io.cloudevents.jackson.JsonCloudEventData;
import io.cloudevents.jackson.JsonFormat;

/**
 * Reads a structured-mode CloudEvent ({@code application/cloudevents+json}) with the CloudEvents SDK's JSON
 * format, and says what makes it unusable for Rekon's functions: what the SDK refuses (a missing or mistyped
 * attribute, an unknown {@code specversion}, a {@code time} that is not RFC 3339), an empty required attribute,
 * data that is not JSON, or JSON data that is not an object.
 */
public final class StructuredCloudEvents {

    static final String REQUIRED = "specversion \"1.0\" and the non-empty string attributes id, source and type";

    private static final JsonFormat FORMAT = new JsonFormat();
    private static final com.fasterxml.jackson.databind.ObjectMapper ATTRIBUTES = new com.fasterxml.jackson.databind.ObjectMapper();

    private StructuredCloudEvents() {
    }

    /** What to fix in the event, or null when it is usable. */
    public static String problem(byte[] body) {
        String nullAttribute = nullAttribute(body);
        if (nullAttribute != null) {
            return "the CloudEvent attribute '" + nullAttribute + "' is null; leave it out or give it a value";
        }
        CloudEvent event;
        try {
            event = FORMAT.deserialize(body);
        } catch (RuntimeException e) {
            return "the structured CloudEvent is not valid: " + reason(e) + "; it needs " + REQUIRED;
        }
        if (event == null) {
            return "a structured CloudEvent must be a JSON object; it needs " + REQUIRED;
        }
        for (String attribute : new String[] { "id", "source", "type" }) {
            Object value = event.getAttribute(attribute);
            if (value == null || value.toString().isBlank()) {
                return "the CloudEvent attribute '" + attribute + "' is empty; it needs " + REQUIRED;
            }
        }
        String contentType = event.getDataContentType();
        if (contentType != null && !isJson(contentType)) {
            return "'datacontenttype' must be application/json (or absent), not '" + contentType + "'";
        }
        return dataProblem(event.getData());
    }

    /**
     * An attribute written as JSON {@code null}: the SDK reads it as absent, but Funqy's own reading of the same
     * body fails on it with a 500, which Knative would redeliver forever.
     */
    private static String nullAttribute(byte[] body) {
        try {
            JsonNode tree = ATTRIBUTES.readTree(body);
            if (tree != null && tree.isObject()) {
                for (var it = tree.fields(); it.hasNext();) {
                    var field = it.next();
                    if (field.getValue().isNull() && !field.getKey().equals("data") && !field.getKey().equals("data_base64")) {
                        return field.getKey();
                    }
                }
            }
        } catch (java.io.IOException notJson) {
            return null; // the SDK says what is wrong with it
        }
        return null;
    }

    private static String dataProblem(CloudEventData data) {
        if (data instanceof JsonCloudEventData json) {
            JsonNode node = json.getNode();
            return node == null || node.isObject() || node.isNull() ? null
                    : "the CloudEvent's 'data' must be a JSON object, not " + node.getNodeType().name().toLowerCase(Locale.ROOT);
        }
        return null;
    }

    /** The SDK's own sentence, without the parser's location and exception names. */
    private static String reason(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        String message = t instanceof JsonProcessingException j ? j.getOriginalMessage() : t.getMessage();
        return message == null ? t.getClass().getSimpleName() : message.lines().findFirst().orElse(message);
    }

    static boolean isJson(String mediaType) {
        String m = mediaType.toLowerCase(Locale.ROOT).split(";", 2)[0].trim();
        return m.equals("application/json") || m.endsWith("+json");
    }
}
