package dev.rekon.buildpacks;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.rekon.buildpacks.catalog.BuilderIndex;
import dev.rekon.buildpacks.plan.AffectedBuilders;
import dev.rekon.buildpacks.plan.StatusPlan;
import dev.rekon.buildpacks.view.BuilderView;
import dev.rekon.buildpacks.view.BuildpackSource;
import dev.rekon.cluster.Versioned;
import dev.rekon.core.Reply;
import dev.rekon.pipeline.NamespaceGuard;
import dev.rekon.pipeline.ReconcileLoop;

/**
 * Decides which Builders and ClusterBuilders a buildpack change can alter ({@link AffectedBuilders}, from the
 * {@link BuilderIndex}, no reads), and has each resolved on the one loop by {@link BuilderReconciler}: one object,
 * one retry loop, one reply.
 */
@ApplicationScoped
public class BuilderResolutions {

    @Inject
    BuilderIndex builders;

    @Inject
    NamespaceGuard guard;

    @Inject
    ReconcileLoop loop;

    @Inject
    BuilderReconciler reconciler;

    /** The Builder as the apiserver has it now, resolved and written if its status changes. */
    public Reply resolve(String kind, String namespace, String name) {
        return loop.reconcile(reconciler, BuilderReconciler.Key.named(kind, namespace, name));
    }

    /**
     * Re-resolves the allowed Builders a buildpack change can affect, each on its own; their replies.
     *
     * @param before null when unknown: then every Builder in scope is re-resolved (still no registry reads)
     */
    public List<Reply> after(BuildpackSource before, BuildpackSource after) {
        return after(before, after, new HashMap<>(), true);
    }

    /**
     * The same, reconciled ({@code write}) or planned in report mode against {@code sources}: the buildpacks by
     * namespace as {@link BuilderReconciler.Key#sources} shares them (a report's the statuses its refreshes would
     * write, {@link PlannedStatuses}).
     */
    List<Reply> after(BuildpackSource before, BuildpackSource after, Map<String, List<BuildpackSource>> sources,
            boolean write) {
        List<Versioned<BuilderView>> seen = builders.candidates(after,
                before == null ? null : AffectedBuilders.keysFor(before, after));
        Map<dev.rekon.core.ObjectRef, Versioned<BuilderView>> byRef = new HashMap<>();
        seen.forEach(v -> byRef.put(v.view().ref(), v));
        List<BuilderView> views = seen.stream().map(Versioned::view).toList();
        List<BuilderView> affected = before == null ? AffectedBuilders.inScope(views, after)
                : AffectedBuilders.select(views, before, after);
        return affected.stream().filter(b -> guard.allows(b.namespace()))
                .map(b -> BuilderReconciler.Key.of(byRef.get(b.ref()), sources))
                .map(k -> write ? loop.reconcile(reconciler, k) : loop.report(reconciler, k)).toList();
    }
}
