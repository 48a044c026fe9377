package dev.rekon.modules.lifecycle.apply;

import java.time.Clock;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.rekon.cluster.EventRecorder;
import dev.rekon.core.ConflictException;
import dev.rekon.manifests.apply.WriteSequence;
import dev.rekon.manifests.plan.WriteResult;
import dev.rekon.modules.lifecycle.plan.LifecyclePlan;

/**
 * A lifecycle plan carried out by the shared {@link WriteSequence}, the module's inventory kept in its ConfigMap
 * ({@link LifecycleGateway#inventoryStore}); then the Kyma's status, and the Event the plan decided on the Kyma.
 */
@ApplicationScoped
public class LifecycleWrites {

    @Inject
    LifecycleGateway gateway;

    @Inject
    EventRecorder events;

    @Inject
    Clock clock = Clock.systemUTC();

    /** Carries the plan out; answers what the server said of each object applied, by its identity key. */
    public Map<String, WriteResult.Applied> carryOut(LifecyclePlan plan) {
        WriteResult result = WriteSequence.carryOut(plan, () -> gateway, gateway.inventoryStore(plan.key()), clock);
        if (plan.kymaStatus() != null) {
            try {
                gateway.writeKymaStatus(plan.kymaStatus());
            } catch (ConflictException e) {
                // What was applied before the status write lost its race is done: the next attempt plans from it
                // and finds only the status to write, so the Event of what this plan did is recorded here or never.
                if (plan.writeAhead() != null || plan.writesObjects() || plan.forget() || plan.inventory() != null) {
                    WriteSequence.recordEvent(events, plan.key().kymaRef(), plan);
                }
                throw e;
            }
        }
        WriteSequence.recordEvent(events, plan.key().kymaRef(), plan);
        return result instanceof WriteResult.Written w ? w.applied() : Map.of();
    }
}
