package dev.rekon.packaging;

import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Evaluates Knative Trigger filters on a CloudEvent's attributes as the Broker does: {@code spec.filters}
 * (exact, prefix, suffix, all, any, not) when present, otherwise the exact-match {@code spec.filter.attributes};
 * {@code legacy} evaluates only the latter, as brokers without the new filters do.
 */
final class TriggerFilters {

    private TriggerFilters() {
    }

    static boolean matches(JsonNode trigger, Map<String, String> attributes, boolean legacy) {
        JsonNode spec = trigger.path("spec");
        JsonNode filters = spec.path("filters");
        if (!legacy && filters.isArray() && !filters.isEmpty()) {
            return all(filters, attributes);
        }
        JsonNode exact = spec.path("filter").path("attributes");
        return !exact.isObject() || compare(exact, attributes, String::equals);
    }

    private static boolean all(JsonNode expressions, Map<String, String> attributes) {
        for (JsonNode e : expressions) {
            if (!eval(e, attributes)) {
                return false;
            }
        }
        return true;
    }

    private static boolean eval(JsonNode e, Map<String, String> a) {
        if (e.has("exact")) {
            return compare(e.get("exact"), a, String::equals);
        }
        if (e.has("prefix")) {
            return compare(e.get("prefix"), a, String::startsWith);
        }
        if (e.has("suffix")) {
            return compare(e.get("suffix"), a, String::endsWith);
        }
        if (e.has("all")) {
            return all(e.get("all"), a);
        }
        if (e.has("any")) {
            for (JsonNode x : e.get("any")) {
                if (eval(x, a)) {
                    return true;
                }
            }
            return false;
        }
        if (e.has("not")) {
            return !eval(e.get("not"), a);
        }
        throw new IllegalArgumentException("filter expression not understood here: " + e);
    }

    private static boolean compare(JsonNode fields, Map<String, String> a,
            java.util.function.BiPredicate<String, String> op) {
        var it = fields.fields();
        while (it.hasNext()) {
            var f = it.next();
            String value = a.get(f.getKey());
            if (value == null || !op.test(value, f.getValue().asText())) {
                return false;
            }
        }
        return true;
    }
}
