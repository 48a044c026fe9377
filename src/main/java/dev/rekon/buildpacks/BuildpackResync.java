package dev.rekon.buildpacks;

import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.rekon.buildpacks.apply.BuildpackGateway;
import dev.rekon.buildpacks.catalog.BuilderIndex;
import dev.rekon.buildpacks.catalog.BuildpackCatalog;
import dev.rekon.buildpacks.plan.BuildpackRecheckPlanner;
import dev.rekon.buildpacks.plan.RecheckView;
import dev.rekon.cluster.InstalledKinds;
import dev.rekon.core.ObjectRef;
import dev.rekon.core.Outcome;
import dev.rekon.core.RefusedException;
import dev.rekon.core.Reply;
import dev.rekon.core.TransientFailureException;
import dev.rekon.pipeline.NamespaceGuard;
import dev.rekon.pipeline.ReconcileLoop;
import dev.rekon.resync.AreaPass;
import dev.rekon.resync.AreaResult;
import dev.rekon.resync.AreaResync;
import dev.rekon.resync.AreaTally;
import dev.rekon.resync.ResyncScope;

/**
 * The buildpacks part of a resync pass, in the one shape of every area ({@link AreaPass}): every Buildpack and
 * ClusterBuildpack (from the catalog's watches, no read per object) is a key for {@link BuildpackRecheckReconciler}
 * on the one loop: one manifest HEAD of its image ({@link RecheckPass}: one per image and ServiceAccount), and only
 * where {@link BuildpackRecheckPlanner} finds the digest moved does the event path's own refresh run (full read,
 * status write, re-resolution of the Builders it affects). Then every Builder and ClusterBuilder is re-resolved
 * ({@link BuilderRechecks}). So registries without webhooks converge too. A report plans the same: a refresh from
 * the same read of the image, and the Builders against the statuses the refreshes would write
 * ({@link PlannedStatuses}), written nowhere; so it names what the writing pass then writes. A cluster without
 * kpack's buildpack kinds skips the area.
 */
@ApplicationScoped
public class BuildpackResync implements AreaResync {

    public static final String AREA = "buildpacks";

    @Inject
    ReconcileLoop loop;

    @Inject
    BuildpackRecheckReconciler rechecks;

    @Inject
    BuilderReconciler builderReconciler;

    @Inject
    BuildpackCatalog catalog;

    @Inject
    BuilderIndex builders;

    @Inject
    BuildpackGateway gateway;

    @Inject
    NamespaceGuard guard;

    @Inject
    InstalledKinds kinds;

    @Override
    public AreaResult resync(ResyncScope scope) {
        Optional<String> missing = kinds.notInstalled("buildpack publication", InstalledKinds.BUILDPACK_KINDS);
        if (missing.isPresent()) {
            return AreaResult.skipped(AREA, missing.get());
        }
        AreaTally tally = new AreaTally(AREA);
        Optional<List<RecheckView>> listed = AreaPass.listed(tally, "ReadFailed",
                "the Buildpacks and ClusterBuildpacks", () -> catalog.rechecks(scope.namespace()).stream()
                        .filter(b -> guard.allows(b.ref().namespace())).toList());
        if (listed.isEmpty()) {
            return tally.result();
        }
        List<RecheckView> buildpacks = listed.get();
        RecheckPass pass = new RecheckPass(gateway);
        PlannedStatuses planned = new PlannedStatuses(catalog);
        AreaPass.run(loop, rechecks, buildpacks.stream().map(b -> new BuildpackRecheckReconciler.Key(b, pass)).toList(),
                scope, new RecheckCounter(tally, pass, scope.report() ? p -> rechecks.report(p, planned) : p -> { }));
        new BuilderRechecks(loop, builderReconciler, builders).resolve(scope, tally, pass.written(), planned.sources());
        return tally.result();
    }

    /**
     * Counts a Buildpack by what its refresh wrote, or in a report would write (a refresh that writes nothing leaves
     * it unchanged), and the refusals of the Builders that refresh re-resolved; a plan that does not refresh by its
     * reply. {@code reported}: in a report, what the refresh would do is planned first.
     */
    private record RecheckCounter(AreaTally tally, RecheckPass pass,
            Consumer<BuildpackRecheckReconciler.Plan> reported) implements AreaPass.Counter {

        @Override
        public void count(ObjectRef object, Reply reply, boolean writes) {
            tally.count(object, reply, writes);
        }

        @Override
        public void count(ObjectRef object, ReconcileLoop.Passed passed) {
            if (passed.planned() instanceof BuildpackRecheckReconciler.Plan p && passed.reply().outcome() != Outcome.REJECTED) {
                reported.accept(p);
            }
            List<Reply> parts = pass.parts(object);
            // In a report the refresh's own refusal is its plan's reply; a writing pass's is the loop's already.
            Reply own = parts.isEmpty() || passed.reply().outcome() == Outcome.REJECTED
                    || parts.get(0).outcome() != Outcome.REJECTED ? passed.reply() : parts.get(0);
            boolean refreshed = !parts.isEmpty() && own.outcome() != Outcome.REJECTED;
            if (!refreshed) {
                count(object, own, passed.writes());
            }
            parts.stream().skip(1).filter(p -> p.outcome() == Outcome.REJECTED).forEach(p -> tally.failed(
                    p.objects().isEmpty() ? object : p.objects().get(0), p.reason(), p.message()));
            if (refreshed && pass.written().contains(object)) {
                tally.changed(object, passed.reply().reason(), passed.reply().message());
            } else if (refreshed) {
                tally.unchanged();
            }
        }

        @Override
        public void failed(ObjectRef object, String reason, String message) {
            tally.failed(object, pass.headFailed(object) ? "ImageCheckFailed" : "RefreshFailed", object + ": " + message);
        }
    }

    @Override
    public String area() {
        return AREA;
    }
}
