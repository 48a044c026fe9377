package dev.rekon.modules.plan;

import java.util.List;

import dev.rekon.core.ObjectRef;
import dev.rekon.core.Outcome;
import dev.rekon.core.Reply;

/** Turns a module plan into its reply: the outcome, and which module moved from which version to which. */
public final class ModuleReplies {

    private ModuleReplies() {
    }

    public static Reply of(ModulePlan plan, String module, String from, String to) {
        Outcome outcome = plan instanceof ModulePlan.Apply ? Outcome.APPLIED
                : plan instanceof ModulePlan.Rejected ? Outcome.REJECTED : Outcome.UNCHANGED;
        List<ObjectRef> objects = plan instanceof ModulePlan.Apply a
                ? a.patches().stream().map(ModulePlan.DeploymentPatch::ref).toList() : List.of();
        return new Reply(outcome, plan.reason(), plan.message(), objects)
                .with("module", module).with("fromVersion", from).with("toVersion", to);
    }
}
