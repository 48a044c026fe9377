package dev.rekon.buildpacks;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.rekon.buildpacks.BuildpackInput.BuilderChanged;
import dev.rekon.buildpacks.BuildpackInput.BuilderDeleted;
import dev.rekon.buildpacks.BuildpackInput.BuildpackChanged;
import dev.rekon.buildpacks.BuildpackInput.Published;
import dev.rekon.buildpacks.catalog.BuilderIndex;
import dev.rekon.buildpacks.catalog.BuildpackCatalog;
import dev.rekon.buildpacks.view.BuilderView;
import dev.rekon.buildpacks.view.BuildpackSource;
import dev.rekon.buildpacks.view.BuildpackView;
import dev.rekon.cluster.Versioned;
import dev.rekon.core.Reply;
import dev.rekon.pipeline.NamespaceGuard;
import dev.rekon.pipeline.ReconcileLoop;
import dev.rekon.pipeline.Replies;
import dev.rekon.registry.ImageReference;

/**
 * Runs buildpack publication on the one loop: the Buildpack that changed ({@link BuildpackReconciler}: the only
 * registry read), then each Builder whose resolution that change can alter ({@link BuilderResolutions}), each
 * object with its own retries and its own part of the one reply. One status
 * write per changed object, each guarded by the resourceVersion it was planned from; nothing is written when a
 * plan finds no change. Other Buildpacks and Builders come from {@link BuildpackCatalog} and {@link BuilderIndex}.
 */
@ApplicationScoped
public class BuildpackService {

    @Inject
    BuildpackCatalog catalog;

    @Inject
    BuilderIndex builders;

    @Inject
    BuilderResolutions resolutions;

    @Inject
    BuildpackReconciler reconciler;

    @Inject
    ReconcileLoop loop;

    @Inject
    NamespaceGuard guard;

    public Reply handle(BuildpackInput input) {
        if (input instanceof BuildpackChanged c) {
            BuildpackSource before = c.before() == null ? null : BuildpackView.of(c.before()).asSource();
            return refresh(new BuildpackReconciler.Key(c.kind(), c.namespace(), c.name(), before, null));
        }
        if (input instanceof BuilderChanged b) {
            return resolutions.resolve(b.kind(), b.namespace(), b.name());
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
            replies.add(refresh(new BuildpackReconciler.Key(s.kind(), s.namespace(), s.name(), s, pushed)));
        }
        for (BuilderView b : buildersNaming(pushed.repositoryKey())) {
            replies.add(resolutions.resolve(b.kind(), b.namespace(), b.name()));
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
     * The Buildpack's status from a fresh read and its image (written when it changed, guarded by the version read),
     * then each Builder it can affect, on the loop of its own.
     */
    Reply refresh(BuildpackReconciler.Key key) {
        return Replies.combine(refreshParts(key));
    }

    /** The same, each object's reply apart: the Buildpack's first. */
    List<Reply> refreshParts(BuildpackReconciler.Key key) {
        return loop.reconcileThen(reconciler, key, plan -> resolutions.after(plan.before(), plan.provides()));
    }

    /**
     * The same in report mode, written nowhere: the Buildpack's plan from the same read of its image, then each
     * Builder it can affect planned against the statuses the pass's refreshes would write ({@code planned}, which
     * learns this one's).
     */
    List<Reply> reportParts(BuildpackReconciler.Key key, PlannedStatuses planned) {
        Optional<ReconcileLoop.Passed> passed = loop.pass(reconciler, key, false);
        List<Reply> parts = new ArrayList<>();
        passed.ifPresent(p -> parts.add(p.reply()));
        if (passed.isPresent() && passed.get().planned() instanceof BuildpackReconciler.Plan plan) {
            planned.planned(plan);
            parts.addAll(resolutions.after(plan.before(), plan.provides(), planned.sources(), false));
        }
        return parts;
    }
}
