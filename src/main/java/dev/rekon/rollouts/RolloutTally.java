package dev.rekon.rollouts;

import java.util.ArrayList;
import java.util.List;

import dev.rekon.core.ObjectRef;
import dev.rekon.core.Outcome;
import dev.rekon.core.Reply;
import dev.rekon.resync.AreaPass;
import dev.rekon.resync.AreaResult;
import dev.rekon.resync.AreaTally;
import dev.rekon.resync.ResyncItem;
import dev.rekon.rollouts.plan.ManualChanges;
import dev.rekon.rollouts.plan.PrunePlanner;
import dev.rekon.rollouts.plan.RolloutPlanner;

/**
 * Decides how each key of a rollouts resync pass counts in its result: for an ImageDeploy, a hand change is
 * drifted, a Deployment that is not Rekon's a conflict, a write (or would-be write) changed, anything else
 * unchanged; for a managed Deployment ({@link #prunes()}), a delete (or would-be delete) is changed as
 * {@value #PRUNED}, one changed since planned a conflict, and a kept one is not counted at all (its ImageDeploy
 * was).
 */
final class RolloutTally implements AreaPass.Counter {

    static final String PRUNED = "pruned";

    private final AreaTally tally = new AreaTally(RolloutResync.AREA);

    /** The conflicts and pruned Deployments, which the {@link AreaTally} has no count for. */
    private final List<ResyncItem> extras = new ArrayList<>();

    @Override
    public void count(ObjectRef ref, Reply reply, boolean wrote) {
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

    @Override
    public void failed(ObjectRef ref, String reason, String message) {
        tally.failed(ref, reason, message);
    }

    /** The counter of the managed Deployments' prune plans. */
    AreaPass.Counter prunes() {
        return new AreaPass.Counter() {
            @Override
            public void count(ObjectRef ref, Reply reply, boolean deletes) {
                if (PrunePlanner.CHANGED.equals(reply.reason())) {
                    extras.add(new ResyncItem(ref, "conflict", PrunePlanner.REASON, reply.message()));
                } else if (reply.outcome() == Outcome.REJECTED) {
                    extras.add(new ResyncItem(ref, "failed", PrunePlanner.REASON, "could not prune: " + reply.message()));
                } else if (deletes) {
                    extras.add(new ResyncItem(ref, PRUNED, PrunePlanner.REASON, reply.message()));
                }
            }

            @Override
            public void failed(ObjectRef ref, String reason, String message) {
                extras.add(new ResyncItem(ref, "failed", PrunePlanner.REASON, "could not prune: " + message));
            }
        };
    }

    AreaResult result() {
        AreaResult r = tally.result();
        if (extras.isEmpty()) {
            return r;
        }
        int changed = (int) extras.stream().filter(i -> PRUNED.equals(i.result())).count();
        List<ResyncItem> objects = new ArrayList<>(r.objects());
        objects.addAll(extras);
        return new AreaResult(r.area(), r.checked() + extras.size(), r.changed() + changed, r.unchanged(), r.drifted(),
                r.failed() + extras.size() - changed, objects);
    }
}
