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

import dev.rekon.cluster.KubeErrors;
import dev.rekon.cluster.Versioned;
import dev.rekon.core.ObjectRef;
import dev.rekon.core.RekonConfig;
import dev.rekon.core.Reply;
import dev.rekon.core.TransientFailureException;
import dev.rekon.registry.ImageReference;

/**
 * Runs buildpack publication: read → plan → write for the Buildpack that changed (the only registry read),
 * then re-resolves, from statuses, each Builder whose resolution that change can alter. One status write per
 * changed object; nothing is written when a plan finds no change. Buildpacks and Builders other than the
 * event's own object come from {@link BuildpackCatalog} and {@link BuilderIndex}, not from lists.
 */
@ApplicationScoped
public class BuildpackService {

    @Inject
    BuildpackGateway gateway;

    @Inject
    BuildpackCatalog catalog;

    @Inject
    BuilderIndex builders;

    @Inject
    RekonConfig config;

    Clock clock = Clock.systemUTC();

    /** A Buildpack or ClusterBuildpack was added, updated or deleted; {@code before} is its old object if known. */
    public Reply buildpackChanged(String kind, String namespace, String name, JsonNode before) {
        return buildpackChanged(kind, namespace, name, before == null ? null : BuildpackView.of(before).asSource(), null);
    }

    /** @param pushed the push that caused this event, or null */
    private Reply buildpackChanged(String kind, String namespace, String name, BuildpackSource old, ImageReference pushed) {
        Optional<JsonNode> live = gateway.get(kind, namespace, name);
        if (live.isEmpty()) {
            BuildpackSource gone = new BuildpackSource(kind, namespace, name, List.of());
            catalog.gone(gone);
            return reply(List.of(), rebuildBuilders(old, gone), kind + " " + name + " is gone");
        }
        BuildpackView view = BuildpackView.of(live.get());
        ImageRead read = view.image() == null ? null
                : gateway.readBuildpackage(view.imageToRead(pushed), view.serviceAccountNamespace(), view.serviceAccountName());
        StatusPlan plan = BuildpackStatusPlanner.plan(view, read, clock.instant());
        BuildpackSource after = view.asSource();
        String version = live.get().path("metadata").path("resourceVersion").asText(null);
        if (plan instanceof StatusPlan.Write w) {
            version = gateway.patchStatus(w.target(), w.patch());
            after = withStatus(view, w.patch()).asSource();
        }
        catalog.knows(after, view.image(), version);
        return reply(List.of(plan), rebuildBuilders(view.asSource(), after), null);
    }

    /** A Builder or ClusterBuilder was added or updated: resolve it. */
    public Reply builderChanged(String kind, String namespace, String name) {
        return gateway.get(kind, namespace, name)
                .map(b -> reply(List.of(), List.of(resolve(BuilderView.of(b), null, new HashMap<>())), null))
                .orElseGet(() -> Reply.unchanged("BuilderNotFound", kind + " " + name + " no longer exists", List.of()));
    }

    /** The manual event: a buildpackage image was pushed. Re-reads every resource naming its repository. */
    public Reply published(ImageReference pushed) {
        List<Reply> replies = new ArrayList<>();
        for (BuildpackSource s : buildpacksNaming(pushed.repositoryKey())) {
            replies.add(buildpackChanged(s.kind(), s.namespace(), s.name(), s, pushed));
        }
        for (BuilderView b : buildersNaming(pushed.repositoryKey())) {
            replies.add(builderChanged(b.kind(), b.namespace(), b.name()));
        }
        return Replies.combine(replies, "no Buildpack, ClusterBuildpack or Builder names " + pushed.repositoryKey());
    }

    /** The Buildpacks and ClusterBuildpacks (where Rekon may act) whose image is in the repository, from the catalog. */
    public List<BuildpackSource> buildpacksNaming(String repositoryKey) {
        return catalog.naming(repositoryKey).stream().map(BuildpackCatalog.Cataloged::source)
                .filter(s -> config.namespacePolicy().allows(s.namespace())).toList();
    }

    /** The Builders and ClusterBuilders (where Rekon may act) naming an image of the repository, from the index. */
    public List<BuilderView> buildersNaming(String repositoryKey) {
        return builders.naming(repositoryKey).stream().map(Versioned::view).filter(this::allowed).toList();
    }

    /** @param before null when unknown: then every Builder in scope is re-resolved (still no registry reads) */
    private List<StatusPlan> rebuildBuilders(BuildpackSource before, BuildpackSource after) {
        List<Versioned<BuilderView>> seen = builders.candidates(after, before == null ? null : AffectedBuilders.keysFor(before, after));
        Map<ObjectRef, String> versions = new HashMap<>();
        seen.forEach(v -> versions.put(v.view().ref(), v.resourceVersion()));
        List<BuilderView> views = seen.stream().map(Versioned::view).toList();
        List<BuilderView> affected = before == null ? AffectedBuilders.inScope(views, after)
                : AffectedBuilders.select(views, before, after);
        Map<String, List<BuildpackSource>> sources = new HashMap<>();
        return affected.stream().filter(this::allowed).map(b -> resolveSeen(b, versions.get(b.ref()), sources)).toList();
    }

    /**
     * Resolves a Builder as the index saw it, writing only if it is still at that version; when it is not (the
     * index lagged, or it changed meanwhile), resolves it again from a fresh read.
     */
    private StatusPlan resolveSeen(BuilderView seen, String version, Map<String, List<BuildpackSource>> sources) {
        try {
            return resolve(seen, version, sources);
        } catch (TransientFailureException e) {
            if (version == null || !KubeErrors.isConflict(e)) {
                throw e;
            }
            return gateway.get(seen.kind(), seen.namespace(), seen.name())
                    .map(b -> resolve(BuilderView.of(b), null, sources))
                    .orElseGet(() -> new StatusPlan.NoChange(seen.ref(), "BuilderNotFound", seen.ref() + " no longer exists"));
        }
    }

    /**
     * Resolves one Builder from statuses (and reads of the images it names directly), writing if changed.
     *
     * @param version the resourceVersion the write requires, or null for none
     */
    private StatusPlan resolve(BuilderView b, String version, Map<String, List<BuildpackSource>> sources) {
        List<BuildpackSource> clusterBps = sources.computeIfAbsent(null, k -> catalog.sources(BuildpackSource.CLUSTER_BUILDPACK, null));
        List<BuildpackSource> nsBps = b.isClusterBuilder() ? List.of()
                : sources.computeIfAbsent(b.namespace(), ns -> catalog.sources(BuildpackSource.BUILDPACK, ns));
        Catalog catalog = Catalog.of(nsBps, clusterBps);
        for (String image : b.images()) {
            ImageRead read = gateway.readBuildpackage(image, b.serviceAccountNamespace(), b.serviceAccountName());
            catalog = read instanceof ImageRead.Found f
                    ? catalog.withImage(new BuildpackSource(BuildpackSource.IMAGE, null, image, BuildpackageLabels.read(f.image(), image)))
                    : catalog.withUnreadableImage(image, ((ImageRead.Unreadable) read).message());
        }
        StatusPlan plan = BuilderStatusPlanner.plan(b, catalog, clock.instant());
        if (plan instanceof StatusPlan.Write w) {
            gateway.patchStatus(w.target(), w.patch(), version);
        }
        return plan;
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

    private static Reply reply(List<StatusPlan> own, List<StatusPlan> builders, String gone) {
        List<StatusPlan> all = new ArrayList<>(own);
        all.addAll(builders);
        return Replies.of(all, gone);
    }
}
