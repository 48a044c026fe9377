package dev.rekon.modules.publish;

import java.util.Optional;

import dev.rekon.core.ObjectRef;
import dev.rekon.core.Reply;
import dev.rekon.modules.publish.plan.PromotionPlan;
import dev.rekon.modules.publish.plan.SoakKey;
import dev.rekon.modules.publish.plan.SoakViews;
import dev.rekon.pipeline.Reconciler;

/**
 * The promotion rules' reconciler as the page and {@code GET /modules} plan with it, in report mode only: it reads
 * the release meta, the templates and the Kymas from their watches, so that a view of the rules costs no API call
 * and shows what the rules would do now, not what their last plan wrote.
 */
public record SoakPage(SoakReconciler area) implements Reconciler<SoakKey, SoakViews, PromotionPlan> {

    @Override
    public ObjectRef subject(SoakKey key) {
        return area.subject(key);
    }

    @Override
    public Optional<SoakViews> load(SoakKey key, boolean fresh) {
        return area.held(key);
    }

    @Override
    public Reply gone(SoakKey key) {
        return area.gone(key);
    }

    @Override
    public PromotionPlan plan(SoakViews views) {
        return area.plan(views);
    }

    @Override
    public void apply(PromotionPlan plan) {
        throw new IllegalStateException("the page writes nothing");
    }
}
