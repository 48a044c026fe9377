package dev.rekon.buildpacks.plan;

import dev.rekon.core.ObjectRef;

/** What to do with one object's status: merge-patch these fields, or nothing (and why). */
public sealed interface StatusPlan {

    ObjectRef target();

    /** {@code patch} is the merge patch of {@code status}: fields to set, fields to drop. */
    record Write(ObjectRef target, KpackStatus.Patch patch, String reason, String message) implements StatusPlan {
    }

    record NoChange(ObjectRef target, String reason, String message) implements StatusPlan {
    }
}
