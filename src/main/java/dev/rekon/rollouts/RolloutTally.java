package dev.rekon.rollouts;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import dev.rekon.core.ObjectRef;
import dev.rekon.core.Outcome;
import dev.rekon.core.Reply;
import dev.rekon.resync.AreaResult;
import dev.rekon.resync.AreaTally;
import dev.rekon.resync.ResyncItem;
import dev.rekon.rollouts.apply.DeploymentPruner;
import dev.rekon.rollouts.plan.ManualChanges;
import dev.rekon.rollouts.plan.RolloutPlanner;

/**
 * Decides how each ImageDeploy of a rollouts resync pass counts in its result: a hand change is drifted, a
 * Deployment that is not Rekon's a conflict, a write (or would-be write) changed, anything else unchanged; the
 * Deployments pruned afterwards count as changed. Safe to use from the threads of one pass.
 */
final class RolloutTally {

    private final AreaTally tally = new AreaTally(RolloutResync.AREA);

    /** The conflicts and pruned Deployments, which the {@link AreaTally} has no count for. */
    private final List<ResyncItem> extras = Collections.synchronizedList(new ArrayList<>());

    /** Counts the reply planned or reconciled for one ImageDeploy; {@code wrote}: its plan writes. */
    void count(ObjectRef ref, Reply reply, boolean wrote) {
        String reason = reply.reason();
        if (ManualChanges.REASON.equals(reason)) {
            tally.drifted(ref, reason, reply.message());
        } else if (RolloutPlanner.CONFLICT.equals(reason)) {
            extras.add(new ResyncItem(ref, "conflict", reason, reply.message()));
        } else if (reply.outcome() == Outcome.APPLIED || wrote) {
            tally.changed(ref, reason, reply.message());
        } else {
            tally.unchanged();
        }
    }

    /** Not brought in line this pass (null: the whole area); the next pass tries again. */
    void failed(ObjectRef ref, String reason, String message) {
        tally.failed(ref, reason, message);
    }

    /** The Deployments {@link DeploymentPruner} deleted or would delete, and those it failed to. */
    void pruned(List<ResyncItem> items) {
        extras.addAll(items);
    }

    AreaResult result() {
        AreaResult r = tally.result();
        if (extras.isEmpty()) {
            return r;
        }
        int changed = (int) extras.stream().filter(i -> DeploymentPruner.PRUNED.equals(i.result())).count();
        List<ResyncItem> objects = new ArrayList<>(r.objects());
        objects.addAll(extras);
        return new AreaResult(r.area(), r.checked() + extras.size(), r.changed() + changed, r.unchanged(), r.drifted(),
                r.failed() + extras.size() - changed, objects);
    }
}
