package dev.rekon.modules;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;

import dev.rekon.core.ObjectRef;
import dev.rekon.core.Outcome;
import io.quarkus.runtime.annotations.RegisterForReflection;

/** The data of a module function's reply CloudEvent: the outcome and why, and which module moved from where to where. */
@RegisterForReflection
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record ModuleReply(Outcome outcome, String reason, String message, String module, String fromVersion,
        String toVersion, List<ObjectRef> objects) {

    public ModuleReply {
        objects = objects == null ? List.of() : List.copyOf(objects);
    }

    public static ModuleReply of(ModulePlan plan, String module, String from, String to) {
        Outcome outcome = plan instanceof ModulePlan.Apply ? Outcome.APPLIED
                : plan instanceof ModulePlan.Rejected ? Outcome.REJECTED : Outcome.UNCHANGED;
        List<ObjectRef> objects = plan instanceof ModulePlan.Apply a
                ? a.patches().stream().map(ModulePlan.DeploymentPatch::ref).toList() : List.of();
        return new ModuleReply(outcome, plan.reason(), plan.message(), module, from, to, objects);
    }
}
