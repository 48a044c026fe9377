package dev.rekon.cluster;

import java.util.Comparator;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Compares JSON trees as the API server does: 3 and 3L are the same number. Without this, a status read
 * back from the cluster (ints) never equals one built in code (longs), and every event would write it.
 */
public final class JsonEquality {

    private static final Comparator<JsonNode> NUMBERS_BY_VALUE = (a, b) -> {
        if (a.equals(b)) {
            return 0;
        }
        if (a.isNumber() && b.isNumber()) {
            return a.decimalValue().compareTo(b.decimalValue());
        }
        return 1;
    };

    private JsonEquality() {
    }

    public static boolean same(JsonNode a, JsonNode b) {
        return a == null ? b == null : b != null && a.equals(NUMBERS_BY_VALUE, b);
    }
}
