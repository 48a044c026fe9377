package dev.rekon.web;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A CloudEvent Rekon sends in binary mode: its attributes, its extensions (lower-case names, as the CloudEvents
 * spec asks) and flat JSON data. An area makes one without id and source ({@link #of}), naming only its input;
 * whoever sends it names it ({@link #identified}).
 */
public record OutgoingEvent(String id, String type, String source, Map<String, String> extensions,
        Map<String, String> data) {

    public OutgoingEvent {
        extensions = Map.copyOf(extensions);
        data = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(data));
    }

    /** An event of {@code type}, not yet named. */
    public static OutgoingEvent of(String type, Map<String, String> extensions, Map<String, String> data) {
        return new OutgoingEvent(null, type, null, extensions, data);
    }

    /** The same event with its id and source, and one more extension. */
    public OutgoingEvent identified(String id, String source, String extension, String value) {
        Map<String, String> more = new LinkedHashMap<>(extensions);
        more.put(extension, value);
        return new OutgoingEvent(id, type, source, more, data);
    }
}
