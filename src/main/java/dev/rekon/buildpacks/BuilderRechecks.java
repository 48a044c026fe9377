package dev.rekon.buildpacks;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.rekon.buildpacks.catalog.BuilderIndex;
import dev.rekon.buildpacks.plan.StatusPlan;
import dev.rekon.buildpacks.view.BuildpackSource;
import dev.rekon.cluster.Versioned;
import dev.rekon.core.ObjectRef;
import dev.rekon.core.Outcome;
import dev.rekon.core.Reply;
import dev.rekon.pipeline.ReconcileLoop;
import dev.rekon.resync.AreaPass;
import dev.rekon.resync.AreaTally;
import dev.rekon.resync.ResyncScope;

/**
 * The Builders' part of a buildpacks resync pass, in the one shape of every area ({@link AreaPass}): every
 * Builder and ClusterBuilder in scope is a key for {@link BuilderReconciler} on the one loop, planned from its
 * watch and written only where its resolution differs (a refusal is the loop's answer); one a refreshed
 * buildpack already re-resolved in this pass counts as changed without a second resolution.
 */
final class BuilderRechecks {

    private final ReconcileLoop loop;
    private final BuilderReconciler reconciler;
    private final BuilderIndex builders;

    BuilderRechecks(ReconcileLoop loop, BuilderReconciler reconciler, BuilderIndex builders) {
        this.loop = loop;
        this.reconciler = reconciler;
        this.builders = builders;
    }

    /**
     * @param written the objects this pass has written so far (in a report: would write)
     * @param sources the buildpacks by namespace each Builder resolves against where the catalog does not yet hold
     *                them (a report's planned refreshes, {@link PlannedStatuses}); filled in from the catalog
     */
    void resolve(ResyncScope scope, AreaTally tally, Set<ObjectRef> written, Map<String, List<BuildpackSource>> sources) {
        List<BuilderReconciler.Key> keys = new ArrayList<>();
        for (var seen : builders.all(scope.namespace())) {
            ObjectRef ref = seen.view().ref();
            if (written.contains(ref) && loop.refusal(ref.namespace(), ref).isEmpty()) {
                tally.changed(ref, "BuildpackChanged", ref + " re-resolved after a buildpack it uses changed");
            } else {
                keys.add(BuilderReconciler.Key.of(seen, sources));
            }
        }
        AreaPass.run(loop, reconciler, keys, scope, counter(tally));
    }

    /** Counts a Builder by the status its plan writes (its reason), else as {@link AreaTally} does. */
    private static AreaPass.Counter counter(AreaTally tally) {
        return new AreaPass.Counter() {
            @Override
            public void count(ObjectRef object, Reply reply, boolean writes) {
                tally.count(object, reply, writes);
            }

            @Override
            public void count(ObjectRef object, ReconcileLoop.Passed passed) {
                if (passed.reply().outcome() != Outcome.REJECTED
                        && passed.planned() instanceof BuilderReconciler.Plan p && p.status() instanceof StatusPlan.Write w) {
                    tally.changed(object, w.reason(), w.message());
                } else {
                    count(object, passed.reply(), passed.writes());
                }
            }

            @Override
            public void failed(ObjectRef object, String reason, String message) {
                tally.failed(object, reason, message);
            }
        };
    }
}
