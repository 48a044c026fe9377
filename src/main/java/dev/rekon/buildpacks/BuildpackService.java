package dev.rekon.buildpacks;

import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.core.RekonConfig;
import dev.rekon.core.Reply;
import dev.rekon.registry.ImageReference;

/**
 * Runs buildpack publication: read → plan → write for the Buildpack that changed (the only registry read),
 * then re-resolves, from statuses, each Builder whose resolution that change can alter. One status write per
 * changed object; nothing is written when a plan finds no change.
 */
@ApplicationScoped
public class BuildpackService {

    @Inject
    BuildpackGateway gateway;

    @Inject
    RekonConfig config;

    Clock clock = Clock.systemUTC();

    /** A Buildpack or ClusterBuildpack was added, updated or deleted; {@code before} is its old object if known. */
    public Reply buildpackChanged(String kind, String namespace, String name, JsonNode before) {
        Optional<JsonNode> live = gateway.get(kind, namespace, name);
        BuildpackSource old = before == null ? null : BuildpackView.of(before).asSource();
        if (live.isEmpty()) {
            BuildpackSource gone = new BuildpackSource(kind, namespace, name, List.of());
            return reply(List.of(), rebuildBuilders(gone, old, gone), kind + " " + name + " is gone");
        }
        BuildpackView view = BuildpackView.of(live.get());
        ImageRead read = view.image() == null ? null
                : gateway.readBuildpackage(view.image(), view.serviceAccountNamespace(), view.serviceAccountName());
        StatusPlan plan = BuildpackStatusPlanner.plan(view, read, clock.instant());
        BuildpackSource after = view.asSource();
        if (plan instanceof StatusPlan.Write w) {
            gateway.patchStatus(w.target(), w.patch());
            after = withStatus(view, w.patch()).asSource();
        }
        return reply(List.of(plan), rebuildBuilders(after, view.asSource(), after), null);
    }

    /** A Builder or ClusterBuilder was added or updated: resolve it. */
    public Reply builderChanged(String kind, String namespace, String name) {
        return gateway.get(kind, namespace, name)
                .map(b -> reply(List.of(), List.of(resolve(BuilderView.of(b), new HashMap<>())), null))
                .orElseGet(() -> Reply.unchanged("BuilderNotFound", kind + " " + name + " no longer exists", List.of()));
    }

    /** The manual event: a buildpackage image was pushed. Re-reads every resource naming its repository. */
    public Reply published(ImageReference pushed) {
        List<Reply> replies = new ArrayList<>();
        for (String kind : List.of(BuildpackSource.BUILDPACK, BuildpackSource.CLUSTER_BUILDPACK)) {
            for (JsonNode o : gateway.list(kind, null)) {
                BuildpackView v = BuildpackView.of(o);
                if (sameRepository(v.image(), pushed) && config.namespacePolicy().allows(v.namespace())) {
                    replies.add(buildpackChanged(kind, v.namespace(), v.name(), o));
                }
            }
        }
        for (String kind : List.of(BuilderView.BUILDER, BuilderView.CLUSTER_BUILDER)) {
            for (JsonNode o : gateway.list(kind, null)) {
                BuilderView b = BuilderView.of(o);
                if (b.images().stream().anyMatch(i -> sameRepository(i, pushed)) && allowed(b)) {
                    replies.add(builderChanged(kind, b.namespace(), b.name()));
                }
            }
        }
        return Replies.combine(replies, "no Buildpack, ClusterBuildpack or Builder names " + pushed.repositoryKey());
    }

    /** @param before null when unknown: then every Builder in scope is re-resolved (still no registry reads) */
    private List<StatusPlan> rebuildBuilders(BuildpackSource changed, BuildpackSource before, BuildpackSource after) {
        List<BuilderView> candidates = new ArrayList<>();
        boolean cluster = BuildpackSource.CLUSTER_BUILDPACK.equals(changed.kind());
        gateway.list(BuilderView.BUILDER, cluster ? null : changed.namespace()).forEach(o -> candidates.add(BuilderView.of(o)));
        if (cluster) {
            gateway.list(BuilderView.CLUSTER_BUILDER, null).forEach(o -> candidates.add(BuilderView.of(o)));
        }
        List<BuilderView> affected = before == null ? AffectedBuilders.inScope(candidates, changed)
                : AffectedBuilders.select(candidates, before, after);
        Map<String, List<BuildpackSource>> byNamespace = new HashMap<>();
        return affected.stream().filter(this::allowed).map(b -> resolve(b, byNamespace)).toList();
    }

    /** Resolves one Builder from statuses (and reads of the images it names directly), writing if changed. */
    private StatusPlan resolve(BuilderView b, Map<String, List<BuildpackSource>> cache) {
        List<BuildpackSource> clusterBps = cache.computeIfAbsent(null, k -> sources(BuildpackSource.CLUSTER_BUILDPACK, null));
        List<BuildpackSource> nsBps = b.isClusterBuilder() ? List.of()
                : cache.computeIfAbsent(b.namespace(), ns -> sources(BuildpackSource.BUILDPACK, ns));
        Catalog catalog = Catalog.of(nsBps, clusterBps);
        for (String image : b.images()) {
            ImageRead read = gateway.readBuildpackage(image, b.serviceAccountNamespace(), b.serviceAccountName());
            catalog = read instanceof ImageRead.Found f
                    ? catalog.withImage(new BuildpackSource(BuildpackSource.IMAGE, null, image, BuildpackageLabels.read(f.image(), image)))
                    : catalog.withUnreadableImage(image, ((ImageRead.Unreadable) read).message());
        }
        StatusPlan plan = BuilderStatusPlanner.plan(b, catalog, clock.instant());
        if (plan instanceof StatusPlan.Write w) {
            gateway.patchStatus(w.target(), w.patch());
        }
        return plan;
    }

    private List<BuildpackSource> sources(String kind, String namespace) {
        return gateway.list(kind, namespace).stream().map(o -> BuildpackView.of(o).asSource()).toList();
    }

    private boolean allowed(BuilderView b) {
        return config.namespacePolicy().allows(b.namespace());
    }

    private static BuildpackView withStatus(BuildpackView v, ObjectNode patch) {
        ObjectNode status = v.status() == null ? patch.deepCopy() : ((ObjectNode) v.status()).deepCopy();
        patch.fields().forEachRemaining(e -> {
            if (e.getValue().isNull()) {
                status.remove(e.getKey());
            } else {
                status.set(e.getKey(), e.getValue());
            }
        });
        return new BuildpackView(v.kind(), v.namespace(), v.name(), v.generation(), v.image(),
                v.serviceAccountNamespace(), v.serviceAccountName(), status);
    }

    private static boolean sameRepository(String image, ImageReference pushed) {
        try {
            ImageReference ref = ImageReference.parse(image);
            return ref.repositoryKey().equals(pushed.repositoryKey());
        } catch (IllegalArgumentException | NullPointerException e) {
            return false;
        }
    }

    private static Reply reply(List<StatusPlan> own, List<StatusPlan> builders, String gone) {
        List<StatusPlan> all = new ArrayList<>(own);
        all.addAll(builders);
        return Replies.of(all, gone);
    }
}
