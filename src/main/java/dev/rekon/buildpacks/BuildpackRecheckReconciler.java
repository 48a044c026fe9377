package dev.rekon.buildpacks;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.rekon.buildpacks.plan.BuildpackRecheckPlanner;
import dev.rekon.buildpacks.plan.BuildpackRecheckPlanner.Recheck;
import dev.rekon.buildpacks.plan.RecheckView;
import dev.rekon.buildpacks.view.ImageHead;
import dev.rekon.core.ObjectRef;
import dev.rekon.core.Outcome;
import dev.rekon.core.RefusedException;
import dev.rekon.core.Reply;
import dev.rekon.pipeline.Reconciler;
import dev.rekon.registry.ImageReference;

/**
 * A Buildpack's or ClusterBuildpack's recheck in a resync pass, on the one loop: its views are the catalog's
 * {@link RecheckView} (no read of the object), one manifest HEAD of its image ({@link RecheckPass}) and the digest
 * a previous pass saw its status converge at; {@link BuildpackRecheckPlanner} decides whether the status needs the
 * event path's full read; the write is that refresh ({@link BuildpackService#refreshParts}), pinned to the digest
 * the HEAD saw. Only a refresh that went through records its digest as converged, so one that failed or was
 * refused is planned again by the next pass.
 */
@ApplicationScoped
public class BuildpackRecheckReconciler implements Reconciler<BuildpackRecheckReconciler.Key,
        BuildpackRecheckReconciler.Views, BuildpackRecheckReconciler.Plan> {

    /**
     * Per object and image, the digest a pass last saw the status converge at: spares an image index (whose status
     * names its platform manifest) the full read on every pass. A view of the planner, kept across passes.
     */
    private final Map<String, String> converged = new ConcurrentHashMap<>();

    @Inject
    BuildpackService service;

    /** One object of one pass: the pass shares its HEADs per image and ServiceAccount, and hears its refresh. */
    public record Key(RecheckView view, RecheckPass pass) {
        String memo() {
            return view.ref() + "@" + view.image();
        }
    }

    /** The object as the catalog holds it, its image's HEAD (null when none is made) and the converged digest. */
    public record Views(Key key, ImageHead head, String seen) {
    }

    /** The planner's recheck and the HEAD it was made from: a refresh is what writes. */
    public record Plan(Key key, Recheck recheck, ImageHead head) implements Reconciler.Plan {
        @Override
        public Reply reply() {
            List<ObjectRef> objects = List.of(recheck.target());
            return recheck.refresh() ? Reply.applied(recheck.reason(), recheck.message(), objects)
                    : Reply.unchanged(recheck.reason(), recheck.message(), objects);
        }
    }

    /** A recheck over the service's refresh, for callers outside CDI such as service tests. */
    public static BuildpackRecheckReconciler of(BuildpackService service) {
        BuildpackRecheckReconciler r = new BuildpackRecheckReconciler();
        r.service = service;
        return r;
    }

    @Override
    public ObjectRef subject(Key key) {
        return key.view().ref();
    }

    @Override
    public Optional<Views> load(Key key, boolean fresh) {
        return Optional.of(new Views(key, key.pass().head(key.view()), converged.get(key.memo())));
    }

    @Override
    public Reply gone(Key key) {
        throw new IllegalStateException("a recheck's views always load: the catalog named the object");
    }

    @Override
    public Plan plan(Views v) {
        return new Plan(v.key(), BuildpackRecheckPlanner.plan(v.key().view(), v.head(), v.seen()), v.head());
    }

    /** The event path's refresh, then its Builders; the Buildpack's own refusal is the loop's to answer. */
    @Override
    public void apply(Plan plan) {
        ObjectRef ref = plan.key().view().ref();
        List<Reply> parts = service.refreshParts(refresh(plan));
        plan.key().pass().refreshed(ref, parts);
        Reply own = parts.get(0);
        if (own.outcome() == Outcome.REJECTED) {
            throw new RefusedException(0, ref, own.reason(), own.message(), null);
        }
        if (plan.head() instanceof ImageHead.Digest d) {
            converged.put(plan.key().memo(), d.digest());
        }
    }

    /**
     * In a report, what {@link #apply} would do, planned and written nowhere: the refresh's plan from the same
     * pinned read of the image (only for a plan that refreshes, so a converged pass still reads only HEADs), then
     * the Builders it re-resolves, planned against the statuses the pass's refreshes would write; recorded on the
     * pass as a refresh is, for the Builders' part to count them alike.
     */
    void report(Plan plan, PlannedStatuses planned) {
        if (plan.recheck().refresh()) {
            plan.key().pass().refreshed(plan.key().view().ref(), service.reportParts(refresh(plan), planned));
        }
    }

    /** The event path's key for the refresh, pinned to the digest the HEAD saw. */
    private static BuildpackReconciler.Key refresh(Plan plan) {
        RecheckView view = plan.key().view();
        ObjectRef ref = view.ref();
        return new BuildpackReconciler.Key(ref.kind(), ref.namespace(), ref.name(), null,
                plan.head() instanceof ImageHead.Digest d ? pinned(view.image(), d.digest()) : null);
    }

    private static ImageReference pinned(String image, String digest) {
        try {
            return ImageReference.parse(image).withDigest(digest);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
