package dev.rekon.resync;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;

import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * What a resync pass found in one area: how many objects it checked, changed (or, in report mode, would change),
 * found unchanged, found drifted (changed by hand, reported and left alone) and failed on, and the objects
 * changed, drifted or failed, each with its reason.
 */
@RegisterForReflection
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record AreaResult(String area, int checked, int changed, int unchanged, int drifted, int failed,
        List<ResyncItem> objects) {

    public AreaResult {
        objects = objects == null ? List.of() : List.copyOf(objects);
    }
}
