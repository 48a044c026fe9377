package dev.rekon.declared.apply;

import java.time.Clock;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.rekon.cluster.EventRecorder;
import dev.rekon.declared.plan.DeclaredPlan;
import dev.rekon.manifests.apply.WriteSequence;

/**
 * A DeclaredState plan carried out by the shared {@link WriteSequence}, its inventory kept in its status
 * ({@link DeclaredStatusStore}), then the Event the plan decided on it.
 */
@ApplicationScoped
public class DeclaredWrites {

    @Inject
    DeclaredGateway gateway;

    @Inject
    EventRecorder events;

    @Inject
    Clock clock;

    /** Carries the plan out; answers the DeclaredState's resourceVersion after its last write, or null when none. */
    public String carryOut(DeclaredPlan plan) {
        DeclaredStatusStore status = new DeclaredStatusStore(gateway, plan.state());
        WriteSequence.carryOut(plan, () -> gateway.objects(plan.state()), status, clock);
        WriteSequence.recordEvent(events, plan.key().ref(), plan);
        return status.written();
    }
}
