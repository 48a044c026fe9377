package dev.rekon.buildpacks;

import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.rekon.buildpacks.catalog.Buildpackages;
import dev.rekon.buildpacks.status.BuildRows;
import dev.rekon.buildpacks.view.BuilderView;
import dev.rekon.buildpacks.view.BuildpackSource;
import dev.rekon.buildpacks.view.BuildpackView;
import dev.rekon.buildpacks.view.ImageRead;
import dev.rekon.cluster.Versioned;
import dev.rekon.core.ObjectRef;
import dev.rekon.core.Reply;
import dev.rekon.pipeline.Reconciler;

/**
 * The buildpacks' reconcilers as the status page plans with them, in report mode only: a Buildpack or Builder as
 * its watch holds it, and the buildpackages its plan needs as this process last read them ({@link Buildpackages});
 * the plan is the area's own ({@link BuildpackReconciler#plan}, {@link BuilderReconciler#plan}). Nothing is read
 * from the apiserver or a registry, and the loop keeps none of these plans. A buildpackage this process holds no
 * read of is not guessed at: the row names it instead.
 */
final class BuildPage {

    private BuildPage() {
    }

    /** A page row's views: the area's, or (null) the image the process holds no read of. */
    record Loaded<O, V>(O object, V views, String notRead) {
    }

    /** A page row's plan: the area's, or (null) the image the process holds no read of. */
    record Planned<O, P extends Reconciler.Plan>(O object, P plan, String notRead) implements Reconciler.Plan {
        @Override
        public Reply reply() {
            return plan != null ? plan.reply() : Reply.unchanged(BuildRows.NOT_READ, BuildRows.notRead(notRead),
                    List.of());
        }

        @Override
        public boolean writes() {
            return false;
        }
    }

    /** A Buildpack or ClusterBuildpack as watched, planned at {@code now}. */
    record BuildpackKey(BuildpackView view, Instant now) {
    }

    /** A Builder or ClusterBuilder as watched; {@code sources} the buildpacks as the page planned them. */
    record BuilderKey(BuilderView view, Map<String, List<BuildpackSource>> sources, Instant now) {
    }

    record Buildpacks(BuildpackReconciler area, Buildpackages held) implements Reconciler<BuildpackKey,
            Loaded<BuildpackView, BuildpackReconciler.Views>, Planned<BuildpackView, BuildpackReconciler.Plan>> {

        @Override
        public ObjectRef subject(BuildpackKey key) {
            return key.view().ref();
        }

        @Override
        public Optional<Loaded<BuildpackView, BuildpackReconciler.Views>> load(BuildpackKey key, boolean fresh) {
            BuildpackView v = key.view();
            ImageRead read = null;
            if (v.image() != null) {
                Optional<ImageRead> held = this.held.held(v.image(), v.serviceAccountNamespace(),
                        v.serviceAccountName());
                if (held.isEmpty()) {
                    return Optional.of(new Loaded<>(v, null, v.image()));
                }
                read = held.get();
            }
            var areaKey = new BuildpackReconciler.Key(v.kind(), v.namespace(), v.name(), null, null);
            return Optional.of(new Loaded<>(v, new BuildpackReconciler.Views(areaKey,
                    Optional.of(new Versioned<>(null, v)), read, key.now()), null));
        }

        @Override
        public Reply gone(BuildpackKey key) {
            throw new IllegalStateException("the page plans only what its watch holds");
        }

        @Override
        public Planned<BuildpackView, BuildpackReconciler.Plan> plan(
                Loaded<BuildpackView, BuildpackReconciler.Views> v) {
            return new Planned<>(v.object(), v.views() == null ? null : area.plan(v.views()), v.notRead());
        }

        @Override
        public void apply(Planned<BuildpackView, BuildpackReconciler.Plan> plan) {
            throw new IllegalStateException("the page writes nothing");
        }
    }

    record Builders(BuilderReconciler area, Buildpackages held) implements Reconciler<BuilderKey,
            Loaded<BuilderView, BuilderReconciler.Views>, Planned<BuilderView, BuilderReconciler.Plan>> {

        @Override
        public ObjectRef subject(BuilderKey key) {
            return key.view().ref();
        }

        @Override
        public Optional<Loaded<BuilderView, BuilderReconciler.Views>> load(BuilderKey key, boolean fresh) {
            BuilderView b = key.view();
            Map<String, ImageRead> reads = new HashMap<>();
            for (String image : b.images()) {
                Optional<ImageRead> read = held.held(image, b.serviceAccountNamespace(), b.serviceAccountName());
                if (read.isEmpty()) {
                    return Optional.of(new Loaded<>(b, null, image));
                }
                reads.put(image, read.get());
            }
            var catalog = area.catalogFor(b, key.sources(), reads::get);
            return Optional.of(new Loaded<>(b, new BuilderReconciler.Views(new Versioned<>(null, b), catalog,
                    key.now()), null));
        }

        @Override
        public Reply gone(BuilderKey key) {
            throw new IllegalStateException("the page plans only what its watch holds");
        }

        @Override
        public Planned<BuilderView, BuilderReconciler.Plan> plan(Loaded<BuilderView, BuilderReconciler.Views> v) {
            return new Planned<>(v.object(), v.views() == null ? null : area.plan(v.views()), v.notRead());
        }

        @Override
        public void apply(Planned<BuilderView, BuilderReconciler.Plan> plan) {
            throw new IllegalStateException("the page writes nothing");
        }
    }
}
