package dev.rekon.manifests;

import java.util.Iterator;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Whether a live object still holds every field the manifest gives it: the manifest's object is a subset of the
 * live one. Fields the manifest leaves out (set by the server, an HPA's replicas, another controller's
 * annotations) never count as drift; a field the manifest sets and someone changed does, and the next apply
 * takes it back. Lists must have the manifest's length, each element a subset of the live one (the server adds
 * defaults inside elements, never elements).
 */
public final class Drift {

    private Drift() {
    }

    public static boolean holds(JsonNode desired, JsonNode live) {
        if (live == null || live.isMissingNode() || live.isNull()) {
            return desired == null || desired.isNull() || desired.isContainerNode() && desired.isEmpty();
        }
        if (desired.isObject()) {
            if (!live.isObject()) {
                return false;
            }
            for (Iterator<Map.Entry<String, JsonNode>> it = desired.fields(); it.hasNext();) {
                Map.Entry<String, JsonNode> f = it.next();
                if (!holds(f.getValue(), live.get(f.getKey()))) {
                    return false;
                }
            }
            return true;
        }
        if (desired.isArray()) {
            if (!live.isArray() || live.size() != desired.size()) {
                return false;
            }
            for (int i = 0; i < desired.size(); i++) {
                if (!holds(desired.get(i), live.get(i))) {
                    return false;
                }
            }
            return true;
        }
        if (desired.isNumber() && live.isNumber()) {
            return desired.decimalValue().compareTo(live.decimalValue()) == 0;
        }
        return desired.asText().equals(live.asText()) && desired.isValueNode() && live.isValueNode();
    }
}
