package dev.rekon.declared;

import java.util.Optional;

import dev.rekon.core.ObjectRef;
import dev.rekon.core.Reply;
import dev.rekon.declared.plan.DeclaredPlan;
import dev.rekon.declared.plan.DeclaredViews;
import dev.rekon.pipeline.Reconciler;

/**
 * The DeclaredStates' reconciler as the page plans with it, in report mode only: its keys ({@link TipMemo#held})
 * read nothing, and the loop keeps none of its plans, so that a page never takes the place of a plan being carried
 * out.
 */
record DeclaredPage(DeclaredStateReconciler area) implements Reconciler<DeclaredKey, DeclaredViews, DeclaredPlan> {

    @Override
    public ObjectRef subject(DeclaredKey key) {
        return area.subject(key);
    }

    @Override
    public Optional<DeclaredViews> load(DeclaredKey key, boolean fresh) {
        return area.load(key, false);
    }

    @Override
    public Reply gone(DeclaredKey key) {
        return area.gone(key);
    }

    @Override
    public DeclaredPlan plan(DeclaredViews views) {
        return area.plan(views);
    }

    @Override
    public void apply(DeclaredPlan plan) {
        throw new IllegalStateException("the page writes nothing");
    }
}
