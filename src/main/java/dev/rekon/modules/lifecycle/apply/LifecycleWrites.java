package dev.rekon.modules.lifecycle.apply;

import java.time.Clock;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.rekon.cluster.EventRecorder;
import dev.rekon.core.ConflictException;
import dev.rekon.core.ObjectRef;
import dev.rekon.core.Outcome;
import dev.rekon.manifests.apply.InventoryStore;
import dev.rekon.manifests.apply.WriteSequence;
import dev.rekon.manifests.inventory.Inventory;
import dev.rekon.modules.lifecycle.KymaModule;
import dev.rekon.modules.lifecycle.plan.LifecyclePlan;

/**
 * A lifecycle plan carried out by the shared {@link WriteSequence}, the module's inventory kept in its ConfigMap
 * (the final write guarded by the version the write-ahead answered); then the Kyma's status, and an Event on the
 * Kyma.
 */
@ApplicationScoped
public class LifecycleWrites {

    @Inject
    LifecycleGateway gateway;

    @Inject
    EventRecorder events;

    @Inject
    Clock clock = Clock.systemUTC();

    public void carryOut(LifecyclePlan plan) {
        WriteSequence.carryOut(plan, () -> gateway, new ConfigMap(plan.key()), clock);
        if (plan.kymaStatus() != null) {
            try {
                gateway.writeKymaStatus(plan.kymaStatus());
            } catch (ConflictException e) {
                // What was applied before the status write lost its race is done: the next attempt plans from it
                // and finds only the status to write, so the Event of what this plan did is recorded here or never.
                if (plan.writeAhead() != null || plan.writesObjects() || plan.forget() || plan.inventory() != null) {
                    record(plan);
                }
                throw e;
            }
        }
        record(plan);
    }

    /** The module's inventory ConfigMap. */
    private final class ConfigMap implements InventoryStore<Inventory> {

        private final KymaModule key;
        private String version;

        ConfigMap(KymaModule key) {
            this.key = key;
        }

        @Override
        public void write(Inventory record) {
            version = gateway.writeInventory(key, version == null ? record : record.withResourceVersion(version));
        }

        @Override
        public void forget() {
            gateway.deleteInventory(key);
        }
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
