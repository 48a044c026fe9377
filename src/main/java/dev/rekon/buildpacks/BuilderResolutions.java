package dev.rekon.buildpacks;

import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.rekon.cluster.Versioned;
import dev.rekon.core.ObjectRef;
import dev.rekon.core.Reply;
import dev.rekon.pipeline.ConflictRetry;
import dev.rekon.pipeline.NamespaceGuard;

/**
 * Resolves Builders and ClusterBuilders from the {@link BuildpackCatalog} (and reads of the images their order
 * names directly) with {@link BuilderStatusPlanner}, and writes each status that changed, guarded by the
 * resourceVersion the resolution was planned from; a Builder that changed meanwhile is resolved again from a
 * fresh read.
 */
@ApplicationScoped
public class BuilderResolutions {

    @Inject
    BuildpackGateway gateway;

    @Inject
    BuildpackCatalog catalog;

    @Inject
    BuilderIndex builders;

    @Inject
    NamespaceGuard guard;

    @Inject
    Clock clock;

    /** The Builder as the apiserver has it now, resolved and written if its status changes. */
    public Reply resolveAndWrite(String kind, String namespace, String name) {
        return gateway.get(kind, namespace, name)
                .map(b -> StatusReplies.of(List.of(resolveAndWrite(new Versioned<>(
                        b.path("metadata").path("resourceVersion").asText(null), BuilderView.of(b)), new HashMap<>())), null))
                .orElseGet(() -> Reply.unchanged("BuilderNotFound", kind + " " + name + " no longer exists", List.of()));
    }

    /**
     * Re-resolves the allowed Builders a buildpack change can affect.
     *
     * @param before null when unknown: then every Builder in scope is re-resolved (still no registry reads)
     */
    public List<StatusPlan> rebuildAndWrite(BuildpackSource before, BuildpackSource after) {
        List<Versioned<BuilderView>> seen = builders.candidates(after,
                before == null ? null : AffectedBuilders.keysFor(before, after));
        Map<ObjectRef, Versioned<BuilderView>> byRef = new HashMap<>();
        seen.forEach(v -> byRef.put(v.view().ref(), v));
        List<BuilderView> views = seen.stream().map(Versioned::view).toList();
        List<BuilderView> affected = before == null ? AffectedBuilders.inScope(views, after)
                : AffectedBuilders.select(views, before, after);
        Map<String, List<BuildpackSource>> sources = new HashMap<>();
        return affected.stream().filter(b -> guard.allows(b.namespace()))
                .map(b -> resolveAndWrite(byRef.get(b.ref()), sources)).toList();
    }

    /** Resolves a Builder as last seen; when it is no longer at that version, from a fresh read instead. */
    private StatusPlan resolveAndWrite(Versioned<BuilderView> seen, Map<String, List<BuildpackSource>> sources) {
        BuilderView b = seen.view();
        return ConflictRetry.run(fresh -> {
            Versioned<BuilderView> current = fresh ? gateway.get(b.kind(), b.namespace(), b.name())
                    .map(j -> new Versioned<>(j.path("metadata").path("resourceVersion").asText(null), BuilderView.of(j)))
                    .orElse(null) : seen;
            if (current == null) {
                return new StatusPlan.NoChange(b.ref(), "BuilderNotFound", b.ref() + " no longer exists");
            }
            StatusPlan plan = BuilderStatusPlanner.plan(current.view(), catalogFor(current.view(), sources), clock.instant());
            if (plan instanceof StatusPlan.Write w) {
                gateway.patchStatus(w.target(), w.patch(), current.resourceVersion());
            }
            return plan;
        });
    }

    private Catalog catalogFor(BuilderView b, Map<String, List<BuildpackSource>> sources) {
        List<BuildpackSource> clusterBps = sources.computeIfAbsent(null,
                k -> catalog.sources(BuildpackSource.CLUSTER_BUILDPACK, null));
        List<BuildpackSource> nsBps = b.isClusterBuilder() ? List.of()
                : sources.computeIfAbsent(b.namespace(), ns -> catalog.sources(BuildpackSource.BUILDPACK, ns));
        Catalog result = Catalog.of(nsBps, clusterBps);
        for (String image : b.images()) {
            ImageRead read = gateway.readBuildpackage(image, b.serviceAccountNamespace(), b.serviceAccountName());
            result = read instanceof ImageRead.Found f
                    ? result.withImage(new BuildpackSource(BuildpackSource.IMAGE, null, image,
                            BuildpackageLabels.read(f.image(), image)))
                    : result.withUnreadableImage(image, ((ImageRead.Unreadable) read).message());
        }
        return result;
    }
}
