package dev.rekon.buildpacks;

import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.rekon.buildpacks.apply.BuildpackGateway;
import dev.rekon.buildpacks.apply.KpackStatusBody;
import dev.rekon.buildpacks.catalog.BuildpackCatalog;
import dev.rekon.buildpacks.catalog.Buildpackages;
import dev.rekon.buildpacks.plan.BuildpackStatusPlanner;
import dev.rekon.buildpacks.plan.KpackStatus;
import dev.rekon.buildpacks.plan.StatusPlan;
import dev.rekon.buildpacks.view.BuildpackSource;
import dev.rekon.buildpacks.view.BuildpackView;
import dev.rekon.buildpacks.view.ImageRead;
import dev.rekon.cluster.Versioned;
import dev.rekon.core.ObjectRef;
import dev.rekon.core.Reply;
import dev.rekon.pipeline.Reconciler;
import dev.rekon.registry.ImageReference;

/**
 * A Buildpack's or ClusterBuildpack's status on the one loop: its views are the object as the apiserver has it now
 * and one read of its buildpackage (the only registry read of an event); {@link BuildpackStatusPlanner} decides;
 * the status is merge-patched, guarded by the version read, and the catalog learns the result. The plan says what
 * the buildpack provided before and after, so that the Builders it can affect are resolved next, each on the loop
 * of its own ({@link BuilderReconciler}), never inside this one's retries.
 */
@ApplicationScoped
public class BuildpackReconciler
        implements Reconciler<BuildpackReconciler.Key, BuildpackReconciler.Views, BuildpackReconciler.Plan> {

    @Inject
    BuildpackGateway gateway;

    @Inject
    BuildpackCatalog catalog;

    @Inject
    Clock clock;

    @Inject
    Buildpackages held;

    /**
     * @param old    what the Buildpack provided before this change, when the event says (used when it is gone)
     * @param pushed the push that caused this event (or the digest a resync saw), or null
     */
    public record Key(String kind, String namespace, String name, BuildpackSource old, ImageReference pushed) {
        ObjectRef ref() {
            return new ObjectRef(BuildpackView.API_VERSION, kind, namespace, name);
        }
    }

    /** The Buildpack now (empty: gone) and what its image read found (null when it names none, or it is gone). */
    public record Views(Key key, Optional<Versioned<BuildpackView>> live, ImageRead read, Instant now) {
    }

    /**
     * The status to write (null when the object is gone), the version that guards it, and what the buildpack
     * provides before and after the write, for the Builders that follow.
     */
    public record Plan(Key key, StatusPlan status, String resourceVersion, BuildpackView after, BuildpackSource before,
            BuildpackSource provides) implements Reconciler.Plan {
        @Override
        public Reply reply() {
            return status == null
                    ? StatusReplies.of(List.of(), key.kind() + " " + key.name() + " is gone")
                    : StatusReplies.of(List.of(status), null);
        }
    }

    @Override
    public ObjectRef subject(Key key) {
        return key.ref();
    }

    @Override
    public Optional<Views> load(Key key, boolean fresh) {
        Optional<Versioned<BuildpackView>> live = gateway.buildpack(key.kind(), key.namespace(), key.name());
        // Kept under the image as named: a read pinned to a pushed digest is what that tag pointed at.
        ImageRead read = live.map(Versioned::view).filter(v -> v.image() != null).map(v -> held.read(v.image(),
                v.serviceAccountNamespace(), v.serviceAccountName(), gateway.readBuildpackage(
                        v.imageToRead(key.pushed()), v.serviceAccountNamespace(), v.serviceAccountName())))
                .orElse(null);
        return Optional.of(new Views(key, live, read, clock.instant()));
    }

    @Override
    public Reply gone(Key key) {
        throw new IllegalStateException("a Buildpack's views always load; its absence is planned");
    }

    @Override
    public Plan plan(Views v) {
        Key key = v.key();
        if (v.live().isEmpty()) {
            return new Plan(key, null, null, null, key.old(), new BuildpackSource(key.kind(), key.namespace(),
                    key.name(), List.of()));
        }
        BuildpackView view = v.live().get().view();
        StatusPlan status = BuildpackStatusPlanner.plan(view, v.read(), v.now());
        BuildpackView after = status instanceof StatusPlan.Write w ? withStatus(view, w.patch()) : view;
        return new Plan(key, status, v.live().get().resourceVersion(), after, view.asSource(), after.asSource());
    }

    @Override
    public void apply(Plan plan) {
        if (plan.status() == null) {
            catalog.gone(plan.provides());
            return;
        }
        String version = plan.resourceVersion();
        if (plan.status() instanceof StatusPlan.Write w) {
            version = gateway.patchStatus(w.target(), w.patch(), version);
        }
        catalog.knows(plan.after(), version);
    }

    private static BuildpackView withStatus(BuildpackView v, KpackStatus.Patch written) {
        return new BuildpackView(v.kind(), v.namespace(), v.name(), v.generation(), v.image(),
                v.serviceAccountNamespace(), v.serviceAccountName(), KpackStatusBody.merged(v.status(), written));
    }
}
