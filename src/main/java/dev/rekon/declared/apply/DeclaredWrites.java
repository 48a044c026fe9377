package dev.rekon.declared.apply;

import java.time.Clock;
import java.util.Objects;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.rekon.cluster.EventRecorder;
import dev.rekon.core.Outcome;
import dev.rekon.declared.intent.DeclaredStateStatus;
import dev.rekon.declared.intent.DeclaredStateView;
import dev.rekon.declared.plan.DeclaredPlan;
import dev.rekon.declared.plan.DeclaredPlan.Action;
import dev.rekon.manifests.apply.InventoryStore;
import dev.rekon.manifests.apply.WriteSequence;

/**
 * A DeclaredState plan carried out by the shared {@link WriteSequence}, its inventory kept in its status (each
 * write of the DeclaredState guarded by the resourceVersion the one before answered), then an Event on it.
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
        Status status = new Status(plan.state());
        WriteSequence.carryOut(plan, () -> gateway.objects(plan.state()), status, clock);
        record(plan);
        return Objects.equals(status.version, plan.state().resourceVersion()) ? null : status.version;
    }

    /** The DeclaredState's finalizer and status, where its inventory is kept. */
    private final class Status implements InventoryStore<DeclaredStateStatus> {

        private final DeclaredStateView state;
        private String version;

        Status(DeclaredStateView state) {
            this.state = state;
            this.version = state.resourceVersion();
        }

        @Override
        public void finalizer(boolean present) {
            version = gateway.finalizer(state, version, present);
        }

        @Override
        public void write(DeclaredStateStatus record) {
            version = gateway.writeStatus(state, version, record);
        }
    }

    private void record(DeclaredPlan plan) {
        if (!plan.writes() || plan.action() == Action.NONE && plan.status() == null) {
            return;
        }
        if (plan.reply().outcome() == Outcome.REJECTED) {
            events.warning(plan.key().ref(), plan.reply().reason(), plan.reply().message());
        } else if (plan.action() != Action.NONE) {
            events.normal(plan.key().ref(), plan.reply().reason(), plan.reply().message());
        }
    }
}
