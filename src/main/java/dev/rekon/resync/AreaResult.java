package dev.rekon.resync;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;

import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * What a resync pass found in one area: how many objects it checked, changed (or, in report mode, would change),
 * found unchanged, found drifted (changed by hand, reported and left alone) and failed on, and the objects
 * changed, drifted or failed, each with its reason; {@code skipped} says what the pass left out because the
 * cluster does not serve the kinds it needs (null when nothing was): that is no failure. {@code emitted} counts the
 * keys a fanned-out pass sent as reconcile events, to be worked elsewhere (null when it sent none).
 */
@RegisterForReflection
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record AreaResult(String area, int checked, int changed, int unchanged, int drifted, int failed,
        List<ResyncItem> objects, String skipped, Integer emitted) {

    public AreaResult {
        objects = objects == null ? List.of() : List.copyOf(objects);
    }

    public AreaResult(String area, int checked, int changed, int unchanged, int drifted, int failed,
            List<ResyncItem> objects) {
        this(area, checked, changed, unchanged, drifted, failed, objects, null, null);
    }

    public AreaResult(String area, int checked, int changed, int unchanged, int drifted, int failed,
            List<ResyncItem> objects, String skipped) {
        this(area, checked, changed, unchanged, drifted, failed, objects, skipped, null);
    }

    /** The whole area skipped: the cluster does not serve a kind it needs ({@code why} names the CRDs). */
    public static AreaResult skipped(String area, String why) {
        return new AreaResult(area, 0, 0, 0, 0, 0, List.of(), why);
    }

    /** This result, saying that part of the area was skipped, and why. */
    public AreaResult skipping(String why) {
        return new AreaResult(area, checked, changed, unchanged, drifted, failed, objects, why, emitted);
    }

    /** This result, with the keys a fanned-out pass sent. */
    public AreaResult withEmitted(int sent) {
        return new AreaResult(area, checked, changed, unchanged, drifted, failed, objects, skipped, sent);
    }
}
