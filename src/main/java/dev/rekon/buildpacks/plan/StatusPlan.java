package dev.rekon.buildpacks.plan;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.core.ObjectRef;

/** What to do with one object's status: merge-patch these fields, or nothing (and why). */
public sealed interface StatusPlan {

    ObjectRef target();

    /** {@code patch} is a JSON merge patch of {@code status}: fields to set, {@code null} for fields to drop. */
    record Write(ObjectRef target, ObjectNode patch, String reason, String message) implements StatusPlan {
    }

    record NoChange(ObjectRef target, String reason, String message) implements StatusPlan {
    }
}
