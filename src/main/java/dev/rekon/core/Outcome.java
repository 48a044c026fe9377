package dev.rekon.core;

import com.fasterxml.jackson.annotation.JsonValue;

/** What a function did with one event; the reply, the metrics and the logs all speak of these three. */
public enum Outcome {
    /** At least one object in the cluster was written. */
    APPLIED,
    /** The event was understood and the cluster already matched it: zero writes. */
    UNCHANGED,
    /** The event was understood and refused for a permanent reason: zero writes, no retry helps. */
    REJECTED;

    @JsonValue
    public String wire() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
