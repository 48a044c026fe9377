package dev.rekon.buildpacks;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.buildpacks.BuildpackInput.BuilderChanged;
import dev.rekon.buildpacks.BuildpackInput.BuilderDeleted;
import dev.rekon.buildpacks.BuildpackInput.BuildpackChanged;
import dev.rekon.buildpacks.BuildpackInput.Published;
import dev.rekon.cluster.Versioned;
import dev.rekon.core.Reply;
import dev.rekon.pipeline.ApiRefusals;
import dev.rekon.pipeline.ConflictRetry;
import dev.rekon.pipeline.NamespaceGuard;
import dev.rekon.pipeline.Replies;
import dev.rekon.registry.ImageReference;

/**
 * Runs buildpack publication: read → plan → write for the Buildpack that changed (the only registry read),
 * then {@link BuilderResolutions} re-resolves each Builder whose resolution that change can alter. One status
 * write per changed object, each guarded by the resourceVersion it was planned from; nothing is written when a
 * plan finds no change. Other Buildpacks and Builders come from {@link BuildpackCatalog} and {@link BuilderIndex}.
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
    BuilderResolutions resolutions;

    @Inject
    NamespaceGuard guard;

    @Inject
    Clock clock;

    public Reply handle(BuildpackInput input) {
        if (input instanceof BuildpackChanged c) {
            BuildpackSource before = c.before() == null ? null : BuildpackView.of(c.before()).asSource();
            return refreshAndWrite(c.kind(), c.namespace(), c.name(), before, null);
        }
        if (input instanceof BuilderChanged b) {
            return ApiRefusals.asReply(List.of(), () -> resolutions.resolveAndWrite(b.kind(), b.namespace(), b.name()));
        }
        if (input instanceof BuilderDeleted d) {
            return Reply.unchanged("BuilderDeleted", d.kind() + " " + d.name() + " was deleted; nothing to resolve",
                    List.of());
        }
        return published(((Published) input).image());
    }

    /** A push: re-reads every Buildpack, ClusterBuildpack and Builder naming its repository. */
    private Reply published(ImageReference pushed) {
        List<Reply> replies = new ArrayList<>();
        for (BuildpackSource s : buildpacksNaming(pushed.repositoryKey())) {
            replies.add(refreshAndWrite(s.kind(), s.namespace(), s.name(), s, pushed));
        }
        for (BuilderView b : buildersNaming(pushed.repositoryKey())) {
            replies.add(ApiRefusals.asReply(List.of(b.ref()),
                    () -> resolutions.resolveAndWrite(b.kind(), b.namespace(), b.name())));
        }
        return Replies.combine(replies, Reply.unchanged("NothingAffected", "no Buildpack, ClusterBuildpack or Builder"
                + " names " + pushed.repositoryKey(), List.of()));
    }

    /** The Buildpacks and ClusterBuildpacks (where Rekon may act) whose image is in the repository, from the catalog. */
    public List<BuildpackSource> buildpacksNaming(String repositoryKey) {
        return catalog.naming(repositoryKey).stream().map(BuildpackCatalog.Cataloged::source)
                .filter(s -> guard.allows(s.namespace())).toList();
    }

    /** The Builders and ClusterBuilders (where Rekon may act) naming an image of the repository, from the index. */
    public List<BuilderView> buildersNaming(String repositoryKey) {
        return builders.namingRepository(repositoryKey).stream().map(Versioned::view)
                .filter(b -> guard.allows(b.namespace())).toList();
    }

    /**
     * Reads the Buildpack and its image, writes its status when it changed (guarded by the version read, so two
     * racing events cannot overwrite each other), then re-resolves the Builders it can affect.
     *
     * @param old    what the Buildpack was before this change, when known
     * @param pushed the push that caused this event (or the digest a resync saw), or null
     */
    Reply refreshAndWrite(String kind, String namespace, String name, BuildpackSource old, ImageReference pushed) {
        return ApiRefusals.asReply(List.of(), () -> ConflictRetry.run(fresh -> {
            Optional<JsonNode> live = gateway.get(kind, namespace, name);
            if (live.isEmpty()) {
                BuildpackSource gone = new BuildpackSource(kind, namespace, name, List.of());
                catalog.gone(gone);
                return StatusReplies.of(resolutions.rebuildAndWrite(old, gone), kind + " " + name + " is gone");
            }
            BuildpackView view = BuildpackView.of(live.get());
            ImageRead read = view.image() == null ? null : gateway.readBuildpackage(view.imageToRead(pushed),
                    view.serviceAccountNamespace(), view.serviceAccountName());
            StatusPlan plan = BuildpackStatusPlanner.plan(view, read, clock.instant());
            BuildpackView after = view;
            String version = live.get().path("metadata").path("resourceVersion").asText(null);
            if (plan instanceof StatusPlan.Write w) {
                version = gateway.patchStatus(w.target(), w.patch(), version);
                after = withStatus(view, w.patch());
            }
            catalog.knows(after, version);
            List<StatusPlan> all = new ArrayList<>(List.of(plan));
            all.addAll(resolutions.rebuildAndWrite(view.asSource(), after.asSource()));
            return StatusReplies.of(all, null);
        }));
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
}
