package dev.rekon.events;

import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

import dev.rekon.core.InvalidEventException;
import dev.rekon.core.ObjectRef;
import io.quarkus.funqy.knative.events.CloudEvent;

/**
 * One Knative ApiServerSource event, in either mode: Resource mode carries the whole object, Reference mode
 * only an ObjectReference (the object must then be read). Parsing decides nothing about what to do.
 */
public record ApiServerEvent(Verb verb, boolean reference, String apiVersion, String kind, String namespace,
        String name, JsonNode object) {

    public static final String TYPE_PREFIX = "dev.knative.apiserver.";

    /** What happened to the object. */
    public enum Verb {
        ADD, UPDATE, DELETE
    }

    public static boolean isApiServerType(String type) {
        return type != null && type.startsWith(TYPE_PREFIX);
    }

    /** Parses a Funqy CloudEvent whose type is one of the six ApiServerSource types. */
    public static ApiServerEvent parse(CloudEvent<JsonNode> event) {
        return parse(event.type(), event.extensions(), data(event));
    }

    /** Parses an event about a namespaced kind: one without a namespace is refused with what to add. */
    public static ApiServerEvent parseNamespaced(CloudEvent<JsonNode> event) {
        ApiServerEvent e = parse(event);
        if (e.namespace() == null) {
            throw new InvalidEventException(e.kind() + " is namespaced: the event needs its namespace (in the object,"
                    + " the ObjectReference or the CloudEvent extension 'namespace')");
        }
        return e;
    }

    /** The object the event is about. */
    public ObjectRef ref() {
        return new ObjectRef(apiVersion, kind, namespace, name);
    }

    /**
     * The event's data, or null when there is none or it is not JSON: Funqy throws instead (a binary event with
     * no body and no Content-Type, a structured one with {@code data_base64}), which would answer 500 to a
     * malformed event. Data that claims to be JSON and is not still fails, as a 400 that quotes the parser.
     */
    public static JsonNode data(CloudEvent<JsonNode> event) {
        try {
            return event.data();
        } catch (java.io.UncheckedIOException notJson) {
            throw notJson;
        } catch (RuntimeException noData) {
            return null;
        }
    }

    /** A name the apiserver could hold; anything else would fail inside the client instead of as a 400. */
    public static void requireObjectName(String what, String value) {
        if (value == null || value.length() > 253 || !value.matches("[a-z0-9]([-a-z0-9.]*[a-z0-9])?")) {
            throw new InvalidEventException("the event's " + what + " '" + value + "' is not a Kubernetes object name"
                    + " (lower-case letters, digits, '-' and '.')");
        }
    }

    public static ApiServerEvent parse(String type, Map<String, String> extensions, JsonNode data) {
        if (!isApiServerType(type)) {
            throw new InvalidEventException("CloudEvent type '" + type + "' is not an ApiServerSource type ("
                    + TYPE_PREFIX + "resource|ref.add|update|delete)");
        }
        String rest = type.substring(TYPE_PREFIX.length());
        boolean reference;
        if (rest.startsWith("resource.")) {
            reference = false;
        } else if (rest.startsWith("ref.")) {
            reference = true;
        } else {
            throw new InvalidEventException("CloudEvent type '" + type + "' has neither 'resource' nor 'ref' mode");
        }
        Verb verb = verb(type, rest.substring(rest.indexOf('.') + 1));
        if (data == null || !data.isObject()) {
            throw new InvalidEventException("CloudEvent '" + type + "' needs JSON object data: "
                    + (reference ? "an ObjectReference" : "the whole Kubernetes object"));
        }
        JsonNode meta = reference ? data : data.path("metadata");
        String apiVersion = first(text(data, "apiVersion"), ext(extensions, "apiversion"));
        String kind = first(text(data, "kind"), ext(extensions, "kind"));
        String name = first(text(meta, "name"), ext(extensions, "name"));
        String namespace = first(text(meta, "namespace"), ext(extensions, "namespace"));
        if (kind == null || name == null) {
            throw new InvalidEventException("ApiServerSource event without the object's kind and name: set 'kind' and "
                    + (reference ? "'name' in the ObjectReference" : "'metadata.name' in the object")
                    + " or the CloudEvent extensions 'kind' and 'name'");
        }
        requireObjectName("name", name);
        if (namespace != null) {
            requireObjectName("namespace", namespace);
        }
        return new ApiServerEvent(verb, reference, apiVersion, kind, namespace, name, reference ? null : data);
    }

    private static Verb verb(String type, String verb) {
        return switch (verb) {
            case "add" -> Verb.ADD;
            case "update" -> Verb.UPDATE;
            case "delete" -> Verb.DELETE;
            default -> throw new InvalidEventException("CloudEvent type '" + type + "' ends in neither add, update nor delete");
        };
    }

    private static String ext(Map<String, String> extensions, String key) {
        return extensions == null ? null : blankToNull(extensions.get(key));
    }

    private static String text(JsonNode node, String field) {
        JsonNode v = node.get(field);
        return v == null || !v.isTextual() ? null : blankToNull(v.asText());
    }

    private static String first(String a, String b) {
        return a != null ? a : b;
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s;
    }
}
