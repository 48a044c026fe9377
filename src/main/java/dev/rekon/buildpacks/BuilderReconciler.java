package dev.rekon.buildpacks;

import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.rekon.buildpacks.apply.BuildpackGateway;
import dev.rekon.buildpacks.apply.KpackStatusBody;
import dev.rekon.buildpacks.catalog.BuildpackCatalog;
import dev.rekon.buildpacks.catalog.Buildpackages;
import dev.rekon.buildpacks.plan.BuilderStatusPlanner;
import dev.rekon.buildpacks.plan.BuildpackageLabels;
import dev.rekon.buildpacks.plan.Catalog;
import dev.rekon.buildpacks.plan.StatusPlan;
import dev.rekon.buildpacks.view.BuilderView;
import dev.rekon.buildpacks.view.BuildpackSource;
import dev.rekon.buildpacks.view.BuildpackView;
import dev.rekon.buildpacks.view.ImageRead;
import dev.rekon.cluster.Versioned;
import dev.rekon.core.ObjectRef;
import dev.rekon.core.Reply;
import dev.rekon.pipeline.Reconciler;

/**
 * A Builder's or ClusterBuilder's status on the one loop: its views are the Builder (as last seen, or read fresh
 * after a lost race), the {@link BuildpackCatalog} and reads of the buildpackage images its order names directly;
 * {@link BuilderStatusPlanner} resolves it; the status is merge-patched, guarded by the version it was planned from,
 * only when the resolution differs.
 */
@ApplicationScoped
public class BuilderReconciler implements Reconciler<BuilderReconciler.Key, BuilderReconciler.Views, BuilderReconciler.Plan> {

    @Inject
    BuildpackGateway gateway;

    @Inject
    BuildpackCatalog catalog;

    @Inject
    Clock clock;

    @Inject
    Buildpackages held;

    /**
     * One Builder; {@code seen} as a watch last delivered it (null: read it), {@code sources} the catalog's buildpacks
     * by namespace, shared by the Builders of one event so that each namespace is looked up once.
     */
    public record Key(ObjectRef ref, Versioned<BuilderView> seen, Map<String, List<BuildpackSource>> sources) {
        static Key of(Versioned<BuilderView> seen, Map<String, List<BuildpackSource>> sources) {
            return new Key(seen.view().ref(), seen, sources);
        }

        static Key named(String kind, String namespace, String name) {
            return new Key(new ObjectRef(BuildpackView.API_VERSION, kind, namespace, name), null, new HashMap<>());
        }
    }

    public record Views(Versioned<BuilderView> builder, Catalog catalog, Instant now) {
    }

    /** The status to write (or why not), and the version that guards the write. */
    public record Plan(StatusPlan status, String resourceVersion) implements Reconciler.Plan {
        @Override
        public Reply reply() {
            return StatusReplies.of(List.of(status), null);
        }

        @Override
        public boolean writes() {
            return status instanceof StatusPlan.Write;
        }
    }

    @Override
    public ObjectRef subject(Key key) {
        return key.ref();
    }

    @Override
    public Optional<Views> load(Key key, boolean fresh) {
        ObjectRef r = key.ref();
        Optional<Versioned<BuilderView>> current = !fresh && key.seen() != null ? Optional.of(key.seen())
                : gateway.builder(r.kind(), r.namespace(), r.name());
        return current.map(b -> new Views(b, catalogFor(b.view(), key.sources(), image -> held.read(image,
                b.view().serviceAccountNamespace(), b.view().serviceAccountName(), gateway.readBuildpackage(image,
                        b.view().serviceAccountNamespace(), b.view().serviceAccountName()))), clock.instant()));
    }

    @Override
    public Reply gone(Key key) {
        return Reply.unchanged("BuilderNotFound", key.ref().kind() + " " + key.ref().name() + " no longer exists",
                List.of());
    }

    @Override
    public Plan plan(Views v) {
        return new Plan(BuilderStatusPlanner.plan(v.builder().view(), v.catalog(), v.now()), v.builder().resourceVersion());
    }

    @Override
    public void apply(Plan plan) {
        if (plan.status() instanceof StatusPlan.Write w) {
            gateway.patchStatus(w.target(), w.patch(), plan.resourceVersion());
        }
    }

    /**
     * The catalog a Builder resolves against: the buildpacks by namespace ({@link Key#sources}, looked up in the
     * catalog where missing) and each image its order names, as {@code read} gives it.
     */
    Catalog catalogFor(BuilderView b, Map<String, List<BuildpackSource>> sources, Function<String, ImageRead> read) {
        List<BuildpackSource> clusterBps = sources.computeIfAbsent(null,
                k -> catalog.sources(BuildpackSource.CLUSTER_BUILDPACK, null));
        List<BuildpackSource> nsBps = b.isClusterBuilder() ? List.of()
                : sources.computeIfAbsent(b.namespace(), ns -> catalog.sources(BuildpackSource.BUILDPACK, ns));
        Catalog result = Catalog.of(nsBps, clusterBps);
        for (String image : b.images()) {
            ImageRead found = read.apply(image);
            if (found instanceof ImageRead.Unreadable u) {
                result = result.withUnreadableImage(image, u.message());
                continue;
            }
            try {
                result = result.withImage(new BuildpackSource(BuildpackSource.IMAGE, null, image,
                        BuildpackageLabels.read(((ImageRead.Found) found).image(), image)));
            } catch (BuildpackageLabels.Problem p) {
                // An image that is no buildpackage is this Builder's failure to resolve, said in its status.
                result = result.withUnreadableImage(image, p.getMessage());
            }
        }
        return result;
    }

    /** The Builder with the status its plan leaves it with (the page's row). */
    static BuilderView after(BuilderView b, Plan plan) {
        return plan.status() instanceof StatusPlan.Write w ? new BuilderView(b.kind(), b.namespace(), b.name(),
                b.generation(), b.order(), b.serviceAccountNamespace(), b.serviceAccountName(),
                KpackStatusBody.merged(b.status(), w.patch())) : b;
    }
}
