package dev.rekon.core;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;

import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * The data of the CloudEvent every function answers with: the outcome, a machine-readable reason
 * (CamelCase, as in Kubernetes conditions), a sentence for people, and the objects that were touched.
 */
@RegisterForReflection
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record Reply(Outcome outcome, String reason, String message, List<ObjectRef> objects) {

    public Reply {
        objects = objects == null ? List.of() : List.copyOf(objects);
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
}
