package dev.rekon.buildpacks;

import java.util.List;
import java.util.stream.Collectors;

import dev.rekon.buildpacks.plan.StatusPlan;
import dev.rekon.core.Reply;

/** Turns the status plans of one event into its reply: applied when anything was written, else unchanged. */
final class StatusReplies {

    private StatusReplies() {
    }

    static Reply of(List<StatusPlan> plans, String nothingMessage) {
        List<StatusPlan.Write> writes = plans.stream().filter(StatusPlan.Write.class::isInstance)
                .map(StatusPlan.Write.class::cast).toList();
        if (!writes.isEmpty()) {
            String message = writes.stream().map(w -> w.target() + ": " + w.reason() + " (" + w.message() + ")")
                    .collect(Collectors.joining("; "));
            return Reply.applied("StatusWritten", "wrote " + message, writes.stream().map(StatusPlan::target).toList());
        }
        if (plans.isEmpty()) {
            return Reply.unchanged("NothingAffected", (nothingMessage == null ? "" : nothingMessage + "; ")
                    + "no Builder depends on it", List.of());
        }
        return Reply.unchanged("StatusUpToDate", plans.stream().map(p -> p.target().toString())
                .collect(Collectors.joining(", ")) + " already up to date", plans.stream().map(StatusPlan::target).toList());
    }

}
