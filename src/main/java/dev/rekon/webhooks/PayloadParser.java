package dev.rekon.webhooks;

import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Turns one vendor's webhook body into a {@link Delivery}; pure, no I/O. A body of the wrong shape is an
 * {@link dev.rekon.core.InvalidEventException} whose message names the field to fix.
 */
@FunctionalInterface
public interface PayloadParser {

    /** @param headers request headers, names lower-cased */
    Delivery parse(JsonNode body, Map<String, String> headers);
}
