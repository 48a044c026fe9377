package dev.rekon.resync;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;

import dev.rekon.core.Outcome;
import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * The data of a {@code dev.rekon.resync.result} reply: {@code applied} when the pass changed anything, else
 * {@code unchanged} (a pass that sent its keys to the fan-out sink changed nothing itself: {@code FannedOut});
 * a reason, a sentence with the counts, and each area's result with the objects it changed,
 * pruned, found drifted, in conflict or failed on, or what it skipped because the cluster lacks a kind.
 */
@RegisterForReflection
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record ResyncReply(Outcome outcome, String reason, String message, String scope, String namespace,
        List<AreaResult> areas) {

    public ResyncReply {
        areas = areas == null ? List.of() : List.copyOf(areas);
    }

    static ResyncReply of(String scope, ResyncScope s, List<AreaResult> areas) {
        int changed = areas.stream().mapToInt(AreaResult::changed).sum();
        int failed = areas.stream().mapToInt(AreaResult::failed).sum();
        int emitted = areas.stream().mapToInt(a -> a.emitted() == null ? 0 : a.emitted()).sum();
        String reason = failed > 0 ? "PartlyFailed" : changed > 0 ? (s.report() ? "WouldChange" : "Converged")
                : emitted > 0 ? "FannedOut" : "InSync";
        List<String> parts = areas.stream().map(a -> a.area() + ": " + (a.emitted() == null ? ""
                : a.emitted() + " sent to the fan-out sink, ") + (a.skipped() != null && a.checked() == 0
                ? "skipped (" + a.skipped() + ")"
                : a.checked() + " checked, " + a.changed() + (s.report() ? " would change, " : " changed, ")
                        + a.unchanged() + " unchanged, " + a.drifted() + " drifted, " + a.failed() + " failed"
                        + (a.skipped() != null ? "; skipped: " + a.skipped() : ""))).toList();
        String message = (parts.isEmpty() ? "no area of scope " + scope + " is available" : String.join("; ", parts))
                + (failed > 0 ? "; the next pass retries what failed" : "");
        Outcome outcome = changed > 0 && !s.report() ? Outcome.APPLIED : Outcome.UNCHANGED;
        return new ResyncReply(outcome, reason, message, scope, s.namespace(), areas);
    }
}
