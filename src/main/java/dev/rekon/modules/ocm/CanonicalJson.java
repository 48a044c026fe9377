package dev.rekon.modules.ocm;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The two byte-exact JSON forms OCM digests are computed over: RFC 8785 (JCS, keys sorted, no whitespace)
 * and OCM's older generic form, in which every object becomes a list of single-entry objects sorted by key
 * and null values are dropped.
 */
public final class CanonicalJson {

    private CanonicalJson() {
    }

    /** RFC 8785 serialisation. */
    public static String jcs(JsonNode node) {
        StringBuilder out = new StringBuilder();
        write(node, out, false);
        return out.toString();
    }

    /** OCM's generic normalisation format (jsonNormalisation/v1 and /v2). */
    public static String entryList(JsonNode node) {
        StringBuilder out = new StringBuilder();
        write(node, out, true);
        return out.toString();
    }

    private static void write(JsonNode node, StringBuilder out, boolean entries) {
        if (node.isObject()) {
            List<Map.Entry<String, JsonNode>> fields = new ArrayList<>();
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext();) {
                Map.Entry<String, JsonNode> f = it.next();
                if (!(entries && f.getValue().isNull())) {
                    fields.add(f);
                }
            }
            // String.compareTo orders by UTF-16 code units, which is what RFC 8785 prescribes.
            fields.sort(Map.Entry.comparingByKey());
            out.append(entries ? '[' : '{');
            for (int i = 0; i < fields.size(); i++) {
                out.append(i == 0 ? "" : ",").append(entries ? "{" : "");
                string(fields.get(i).getKey(), out);
                out.append(':');
                write(fields.get(i).getValue(), out, entries);
                out.append(entries ? "}" : "");
            }
            out.append(entries ? ']' : '}');
        } else if (node.isArray()) {
            out.append('[');
            for (int i = 0; i < node.size(); i++) {
                out.append(i == 0 ? "" : ",");
                write(node.get(i), out, entries);
            }
            out.append(']');
        } else if (node.isTextual()) {
            string(node.textValue(), out);
        } else if (node.isIntegralNumber() || node.isBoolean() || node.isNull()) {
            out.append(node.asText());
        } else if (node.isNumber()) {
            out.append(number(node.doubleValue()));
        } else {
            throw new IllegalArgumentException("cannot normalise JSON node of type " + node.getNodeType());
        }
    }

    private static String number(double d) {
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            throw new IllegalArgumentException("JSON numbers must be finite");
        }
        if (d == Math.rint(d) && Math.abs(d) < 1e21) {
            return Long.toString((long) d);
        }
        return Double.toString(d);
    }

    private static void string(String s, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }
}
