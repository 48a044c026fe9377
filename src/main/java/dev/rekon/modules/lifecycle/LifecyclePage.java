package dev.rekon.modules.lifecycle;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

import dev.rekon.core.ObjectRef;
import dev.rekon.core.Reply;
import dev.rekon.modules.lifecycle.plan.LifecyclePlan;
import dev.rekon.modules.lifecycle.plan.LifecycleViews;
import dev.rekon.pipeline.Reconciler;

/**
 * The lifecycle's reconciler as the page plans with it, in report mode only: its loads read nothing
 * ({@link KymaModuleReconciler#held}), and the loop keeps none of its plans, so that a page never takes the place
 * of what a module's last attempt read. One per page: it keeps the views each plan was made from, for its row.
 */
record LifecyclePage(KymaModuleReconciler area, Map<KymaModule, LifecycleViews> loaded)
        implements Reconciler<KymaModule, LifecycleViews, LifecyclePlan> {

    LifecyclePage(KymaModuleReconciler area) {
        this(area, new HashMap<>());
    }

    /** The views the page's plan of {@code key} was made from, or null when it made none. */
    LifecycleViews views(KymaModule key) {
        return loaded.get(key);
    }

    @Override
    public ObjectRef subject(KymaModule key) {
        return area.subject(key);
    }

    @Override
    public Optional<LifecycleViews> load(KymaModule key, boolean fresh) {
        Optional<LifecycleViews> views = area.held(key);
        views.ifPresent(v -> loaded.put(key, v));
        return views;
    }

    @Override
    public Reply gone(KymaModule key) {
        return area.gone(key);
    }

    @Override
    public LifecyclePlan plan(LifecycleViews views) {
        return area.plan(views);
    }

    @Override
    public void apply(LifecyclePlan plan) {
        throw new IllegalStateException("the page writes nothing");
    }
}
