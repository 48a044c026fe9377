package dev.rekon.declared.plan;

import java.time.Instant;
import java.util.List;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.cluster.Conditions;
import dev.rekon.cluster.Conditions.Condition;
import dev.rekon.cluster.JsonEquality;
import dev.rekon.core.ObjectRef;
import dev.rekon.declared.intent.DeclaredStateView;

/**
 * A DeclaredState's status as a plan decides it, built on the status it had (conditions keep their transition
 * time while their status stays): the revision, the inventory, the orphans, and the conditions {@code Ready} and
 * {@code Reconciling}, each with the generation it was decided for.
 */
final class DeclaredStatus {

    private final DeclaredStateView state;
    private final Instant now;
    private final ObjectNode status;

    DeclaredStatus(DeclaredStateView state, Instant now) {
        this.state = state;
        this.now = now;
        this.status = state.status().deepCopy();
        status.put("observedGeneration", state.generation());
    }

    DeclaredStatus revision(String revision) {
        status.put("revision", revision);
        return this;
    }

    DeclaredStatus attempted(String revision) {
        if (revision != null) {
            status.put("lastAttemptedRevision", revision);
        }
        return this;
    }

    DeclaredStatus inventory(List<ObjectRef> refs) {
        status.putObject("inventory").set("entries", InventoryIds.write(refs));
        status.put("objectCount", refs.size());
        return this;
    }

    DeclaredStatus orphans(List<DeclaredPlan.Orphan> orphans) {
        ArrayNode list = status.putArray("orphans");
        for (DeclaredPlan.Orphan o : orphans) {
            ObjectNode e = list.addObject().put("apiVersion", o.ref().apiVersion()).put("kind", o.ref().kind())
                    .put("namespace", o.ref().namespace()).put("name", o.ref().name()).put("since", o.since().toString());
            if (o.deleteAfter() != null) {
                e.put("deleteAfter", o.deleteAfter().toString());
            }
        }
        status.put("orphanCount", orphans.size());
        return this;
    }

    DeclaredStatus condition(Condition c) {
        status.set("conditions", Conditions.set(status.path("conditions"), c, state.generation(), now));
        return this;
    }

    DeclaredStatus ready(String statusValue, String reason, String message) {
        return condition(new Condition("Ready", statusValue, reason, message));
    }

    DeclaredStatus reconciling(boolean reconciling, String reason, String message) {
        return condition(reconciling ? Condition.isTrue("Reconciling", reason, message)
                : Condition.isFalse("Reconciling", reason, message));
    }

    /** The status, or null when it is what the DeclaredState already has (the write is skipped). */
    ObjectNode changed() {
        return JsonEquality.same(status, state.status()) ? null : status;
    }
}
