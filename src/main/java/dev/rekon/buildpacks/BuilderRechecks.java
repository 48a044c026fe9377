package dev.rekon.buildpacks;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.rekon.buildpacks.catalog.BuilderIndex;
import dev.rekon.buildpacks.plan.StatusPlan;
import dev.rekon.buildpacks.view.BuilderView;
import dev.rekon.buildpacks.view.BuildpackSource;
import dev.rekon.cluster.Versioned;
import dev.rekon.core.ObjectRef;
import dev.rekon.core.Outcome;
import dev.rekon.core.RefusedException;
import dev.rekon.core.TransientFailureException;
import dev.rekon.pipeline.NamespaceGuard;
import dev.rekon.resync.AreaTally;
import dev.rekon.resync.ResyncScope;

/**
 * The Builders' part of a buildpacks resync pass: every Builder and ClusterBuilder in scope is re-resolved from
 * the catalog and written only where its resolution differs; one a refreshed buildpack already re-resolved in
 * this pass counts as changed without a second resolution.
 */
final class BuilderRechecks {

    private final BuilderResolutions resolutions;
    private final BuilderIndex builders;
    private final NamespaceGuard guard;

    BuilderRechecks(BuilderResolutions resolutions, BuilderIndex builders, NamespaceGuard guard) {
        this.resolutions = resolutions;
        this.builders = builders;
        this.guard = guard;
    }

    /** @param written the objects this pass has written so far */
    void resolve(ResyncScope scope, AreaTally tally, Set<ObjectRef> written) {
        Map<String, List<BuildpackSource>> sources = new HashMap<>();
        for (Versioned<BuilderView> seen : builders.all(scope.namespace())) {
            BuilderView b = seen.view();
            if (!guard.allows(b.namespace())) {
                continue;
            }
            if (written.contains(b.ref())) {
                tally.changed(b.ref(), "BuildpackChanged", b.ref() + " re-resolved after a buildpack it uses changed");
            } else {
                resolve(seen, sources, scope, tally);
            }
        }
    }

    private void resolve(Versioned<BuilderView> seen, Map<String, List<BuildpackSource>> sources, ResyncScope scope,
            AreaTally tally) {
        ObjectRef ref = seen.view().ref();
        try {
            BuilderResolutions.Resolved resolved = resolutions.resolve(seen, sources, scope.report());
            if (resolved.reply().outcome() == Outcome.REJECTED) {
                tally.failed(ref, resolved.reply().reason(), resolved.reply().message());
            } else if (resolved.plan() instanceof StatusPlan.Write w) {
                tally.changed(ref, w.reason(), w.message());
            } else {
                tally.unchanged();
            }
        } catch (TransientFailureException | RefusedException e) {
            tally.failed(ref, "ResolveFailed", ref + ": " + e.getMessage());
        }
    }
}
