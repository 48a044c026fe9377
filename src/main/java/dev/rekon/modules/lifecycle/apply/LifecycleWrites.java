package dev.rekon.modules.lifecycle.apply;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.rekon.cluster.EventRecorder;
import dev.rekon.core.ConflictException;
import dev.rekon.core.ObjectRef;
import dev.rekon.core.Outcome;
import dev.rekon.manifests.apply.StagedWrites;
import dev.rekon.modules.lifecycle.plan.LifecyclePlan;

/**
 * Carries out a lifecycle plan in its order: the inventory's write-ahead first (so every object that may exist is
 * recorded before it is created), the staged apply (every CRD Established before anything of a later stage), the
 * deletes, the final inventory, the Kyma's status, and an Event on the Kyma. A failure part-way leaves the
 * inventory covering everything written, and the next attempt plans from what is there.
 */
@ApplicationScoped
public class LifecycleWrites {

    @Inject
    LifecycleGateway gateway;

    @Inject
    EventRecorder events;

    public void carryOut(LifecyclePlan plan) {
        String inventoryVersion = plan.writeAhead() == null ? null : gateway.writeInventory(plan.key(), plan.writeAhead());
        StagedWrites.apply(gateway, plan.apply());
        StagedWrites.delete(gateway, plan.delete());
        if (plan.forget()) {
            gateway.deleteInventory(plan.key());
        } else if (plan.inventory() != null) {
            gateway.writeInventory(plan.key(), inventoryVersion == null ? plan.inventory()
                    : plan.inventory().withResourceVersion(inventoryVersion));
        }
        if (plan.kymaStatus() != null) {
            try {
                gateway.writeKymaStatus(plan.kymaStatus());
            } catch (ConflictException e) {
                // What was applied before the status write lost its race is done: the next attempt plans from it
                // and finds only the status to write, so the Event of what this plan did is recorded here or never.
                if (plan.writeAhead() != null || !plan.apply().isEmpty() || !plan.delete().isEmpty() || plan.forget()
                        || plan.inventory() != null) {
                    record(plan);
                }
                throw e;
            }
        }
        record(plan);
    }

    private void record(LifecyclePlan plan) {
        if (!plan.writes()) {
            return;
        }
        ObjectRef kyma = plan.key().kymaRef();
        if (plan.reply().outcome() == Outcome.REJECTED) {
            events.warning(kyma, plan.reply().reason(), plan.reply().message());
        } else {
            events.normal(kyma, plan.reply().reason(), plan.reply().message());
        }
    }
}
