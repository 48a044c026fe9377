package dev.rekon.buildpacks;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.rekon.buildpacks.apply.BuildpackGateway;
import dev.rekon.buildpacks.catalog.BuilderIndex;
import dev.rekon.buildpacks.catalog.BuildpackCatalog;
import dev.rekon.buildpacks.plan.BuildpackRecheckPlanner;
import dev.rekon.buildpacks.plan.RecheckView;
import dev.rekon.buildpacks.view.ImageHead;
import dev.rekon.cluster.InstalledKinds;
import dev.rekon.core.ObjectRef;
import dev.rekon.core.Outcome;
import dev.rekon.core.RefusedException;
import dev.rekon.core.Reply;
import dev.rekon.core.TransientFailureException;
import dev.rekon.pipeline.NamespaceGuard;
import dev.rekon.pipeline.ReconcileLoop;
import dev.rekon.registry.ImageReference;
import dev.rekon.resync.AreaResult;
import dev.rekon.resync.AreaResync;
import dev.rekon.resync.AreaTally;
import dev.rekon.resync.ResyncScope;

/**
 * The buildpacks part of a resync pass. Every Buildpack and ClusterBuildpack (from the catalog's watches, no read
 * per object) gets one manifest HEAD of its image ({@link BuildpackHeads}). Only where
 * {@link BuildpackRecheckPlanner} finds the digest moved does the event path's own refresh run (full read, status
 * write, re-resolution of the Builders it affects). Then every Builder and ClusterBuilder is re-resolved
 * ({@link BuilderRechecks}). So registries without webhooks converge too. A cluster without kpack's buildpack kinds
 * skips the area.
 */
@ApplicationScoped
public class BuildpackResync implements AreaResync {

    public static final String AREA = "buildpacks";

    /**
     * Per object and image, the digest a pass last saw the status converge at: spares an image index (whose status
     * names its platform manifest) the full read on every pass. A shortcut only: without it the status decides.
     */
    private final Map<String, String> converged = new ConcurrentHashMap<>();

    @Inject
    BuildpackService service;

    @Inject
    ReconcileLoop loop;

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
        List<RecheckView> buildpacks;
        try {
            buildpacks = catalog.rechecks(scope.namespace()).stream().filter(b -> guard.allows(b.ref().namespace()))
                    .toList();
        } catch (TransientFailureException | RefusedException e) {
            tally.failed(null, "ReadFailed", "could not read the Buildpacks and ClusterBuildpacks: " + e.getMessage());
            return tally.result();
        }
        Set<ObjectRef> written = new HashSet<>();
        Map<ObjectRef, BuildpackHeads.Head> heads = new BuildpackHeads(gateway).of(buildpacks);
        buildpacks.forEach(b -> recheck(b, heads.get(b.ref()), scope, tally, written));
        new BuilderRechecks(loop, builderReconciler, builders).resolve(scope, tally, written);
        return tally.result();
    }

    private void recheck(RecheckView b, BuildpackHeads.Head read, ResyncScope scope, AreaTally tally,
            Set<ObjectRef> written) {
        if (read != null && read.failure() != null) {
            tally.failed(b.ref(), "ImageCheckFailed", b.ref() + ": " + read.failure().getMessage());
            return;
        }
        ImageHead head = read == null ? null : read.head();
        String key = b.ref() + "@" + b.image();
        var plan = BuildpackRecheckPlanner.plan(b, head, converged.get(key));
        if (!plan.refresh()) {
            tally.unchanged();
        } else if (scope.report()) {
            tally.changed(b.ref(), plan.reason(), plan.message());
        } else {
            // Only a refresh that went through converged: one that failed or was refused is retried by the next pass.
            if (refresh(b, head, plan, tally, written) && head instanceof ImageHead.Digest d) {
                converged.put(key, d.digest());
            }
        }
    }

    /** The event path's refresh, pinned to the digest the HEAD saw; false when it failed or the Buildpack was refused. */
    private boolean refresh(RecheckView b, ImageHead head, BuildpackRecheckPlanner.Recheck plan, AreaTally tally,
            Set<ObjectRef> written) {
        try {
            List<Reply> parts = service.refreshParts(new BuildpackReconciler.Key(b.ref().kind(), b.ref().namespace(),
                    b.ref().name(), null, head instanceof ImageHead.Digest d ? pinned(b.image(), d.digest()) : null));
            for (Reply part : parts) {
                if (part.outcome() == Outcome.APPLIED) {
                    written.addAll(part.objects());
                } else if (part.outcome() == Outcome.REJECTED) {
                    tally.failed(part.objects().isEmpty() ? b.ref() : part.objects().get(0), part.reason(), part.message());
                }
            }
            if (written.contains(b.ref())) {
                tally.changed(b.ref(), plan.reason(), plan.message());
            } else if (parts.get(0).outcome() != Outcome.REJECTED) {
                tally.unchanged();
            }
            return parts.get(0).outcome() != Outcome.REJECTED; // the Buildpack's own; its Builders are rechecked anyway
        } catch (TransientFailureException | RefusedException e) {
            tally.failed(b.ref(), "RefreshFailed", b.ref() + ": " + e.getMessage());
            return false;
        }
    }

    @Override
    public String area() {
        return AREA;
    }

    private static ImageReference pinned(String image, String digest) {
        try {
            return ImageReference.parse(image).withDigest(digest);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
