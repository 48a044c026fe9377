package dev.rekon.core;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;

import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * The data of the CloudEvent every function answers with: the outcome, a machine-readable reason
 * (CamelCase, as in Kubernetes conditions), a sentence for people, the objects that were touched, and the
 * area's own facts (a module's {@code module}, {@code fromVersion}, {@code toVersion}) as top-level fields.
 */
@RegisterForReflection
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record Reply(Outcome outcome, String reason, String message, List<ObjectRef> objects,
        @JsonIgnore Map<String, String> details) {

    public Reply {
        objects = objects == null ? List.of() : List.copyOf(objects);
        details = details == null ? Map.of() : Map.copyOf(details);
    }

    public Reply(Outcome outcome, String reason, String message, List<ObjectRef> objects) {
        this(outcome, reason, message, objects, Map.of());
    }

    public static Reply applied(String reason, String message, List<ObjectRef> objects) {
        return new Reply(Outcome.APPLIED, reason, message, objects);
    }

    public static Reply unchanged(String reason, String message, List<ObjectRef> objects) {
        return new Reply(Outcome.UNCHANGED, reason, message, objects);
    }

    public static Reply rejected(String reason, String message, List<ObjectRef> objects) {
        return new Reply(Outcome.REJECTED, reason, message, objects);
    }

    /** This reply with one more area fact; a null value adds nothing. */
    public Reply with(String key, String value) {
        if (value == null) {
            return this;
        }
        Map<String, String> more = new LinkedHashMap<>(details);
        more.put(key, value);
        return new Reply(outcome, reason, message, objects, more);
    }

    @JsonAnyGetter
    Map<String, String> detailFields() {
        return details;
    }
}
