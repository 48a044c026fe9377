package dev.rekon.declared.apply;

import java.time.Clock;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.rekon.cluster.EventRecorder;
import dev.rekon.core.Outcome;
import dev.rekon.core.RefusedException;
import dev.rekon.declared.plan.DeclaredPlan;
import dev.rekon.declared.plan.DeclaredPlan.Action;
import dev.rekon.declared.plan.DeclaredReplies;
import dev.rekon.manifests.apply.ManifestCluster;
import dev.rekon.manifests.apply.StagedWrites;

/**
 * Carries out a DeclaredState plan in its order, each write of the DeclaredState guarded by the resourceVersion
 * the one before answered: the finalizer, the inventory written ahead (so a process killed mid-apply never leaves
 * an object the next pass cannot find), the staged apply, the prunes, the orphan deletes, the status, and on
 * deletion the finalizer's removal; then an Event on the DeclaredState.
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
        String version = plan.state().resourceVersion();
        if (plan.addFinalizer()) {
            version = gateway.finalizer(plan.state(), version, true);
        }
        if (plan.writeAhead() != null) {
            version = gateway.writeStatus(plan.state(), version, plan.writeAhead());
        }
        if (!plan.apply().isEmpty() || !plan.prune().isEmpty() || !plan.orphanDeletes().isEmpty()) {
            ManifestCluster cluster = gateway.objects(plan.state());
            try {
                StagedWrites.apply(cluster, plan.apply(), plan.bodies());
                StagedWrites.delete(cluster, plan.prune());
                StagedWrites.delete(cluster, plan.orphanDeletes());
            } catch (RefusedException e) {
                // Only the server knows what the DeclaredState's identity may write: its refusal is the status too.
                gateway.writeStatus(plan.state(), version, DeclaredReplies.refusedOnWrite(plan, e.getMessage(),
                        clock.instant()));
                throw e;
            }
        }
        if (plan.status() != null) {
            version = gateway.writeStatus(plan.state(), version, plan.status());
        }
        if (plan.removeFinalizer()) {
            version = gateway.finalizer(plan.state(), version, false);
        }
        record(plan);
        return version.equals(plan.state().resourceVersion()) ? null : version;
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
