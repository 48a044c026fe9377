package dev.rekon.declared.status;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;

import dev.rekon.core.ObjectRef;
import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * One DeclaredState on the status page, as its planner's report-mode plan has it now: the revision applied and
 * the one the plan applies, Ready with its
 * reason and message, the objects it holds, what is rolling out, what a prune would delete, the orphans (with
 * when they are deleted), and the refusal that holds the branch tip back.
 */
@RegisterForReflection
@JsonInclude(JsonInclude.Include.NON_NULL)
public record DeclaredRow(String namespace, String name, String url, String branch, String applied, String revision,
        String ready, String reason, String message, boolean problem, int objects, int pendingApply,
        List<String> rollingOut,
        List<ObjectRef> pendingPrunes, List<OrphanRow> orphans, String refusal) {

    /** An object git never declared: since when, and when it is deleted (null: only reported). */
    @RegisterForReflection
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record OrphanRow(String kind, String namespace, String name, String since, String deleteAfter) {
    }
}
