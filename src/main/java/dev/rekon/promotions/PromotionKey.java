package dev.rekon.promotions;

import java.util.HashSet;
import java.util.Set;

import dev.rekon.promotions.plan.Approval;
import dev.rekon.promotions.view.ImagePromotionView;

/**
 * Names one ImagePromotion for the loop, with the approval the event carries (null: none) and, for a trigger that
 * found it in the watch of ImagePromotions (a rollout's event, a stage's CDEvent), the promotion as found there,
 * which the plan takes instead of reading it (null: read it), and the stages whose change the trigger announces (a
 * rollout of an ImageDeploy they list; none for a source's build), of which {@code heldCurrent} are those the
 * watches are sure to show as changed (this process wrote the change: its own writes stand in until the watch shows
 * them; or a stage's watch delivered it), so that they are never read again for it. A lost race reads it again.
 */
public record PromotionKey(String namespace, String name, Approval approval, ImagePromotionView seen,
        Set<String> changedStages, Set<String> heldCurrent) {

    public PromotionKey {
        changedStages = changedStages == null ? Set.of() : Set.copyOf(changedStages);
        heldCurrent = heldCurrent == null ? Set.of() : Set.copyOf(heldCurrent);
    }

    public PromotionKey(String namespace, String name, Approval approval) {
        this(namespace, name, approval, null, Set.of(), Set.of());
    }

    public static PromotionKey of(String namespace, String name) {
        return new PromotionKey(namespace, name, null, null, Set.of(), Set.of());
    }

    /**
     * A trigger's key for a promotion as its watch (with this process's own status writes) shows it, announcing a
     * change of the named stages.
     */
    public static PromotionKey seen(ImagePromotionView promotion, Set<String> changedStages) {
        return new PromotionKey(promotion.namespace(), promotion.name(), null, promotion, changedStages, Set.of());
    }

    /** The same, for a change this process wrote itself: the watches hold those stages as they are now. */
    public static PromotionKey written(ImagePromotionView promotion, Set<String> changedStages) {
        return new PromotionKey(promotion.namespace(), promotion.name(), null, promotion, changedStages,
                changedStages);
    }

    /** The same, for a change a stage cluster's watch delivered: that watch holds those stages as they are now. */
    public static PromotionKey shown(ImagePromotionView promotion, Set<String> changedStages) {
        return written(promotion, changedStages);
    }

    /** The stages announced changed that the watches may not show yet: a plan from them that writes none reads them. */
    public Set<String> mayBeAhead() {
        Set<String> out = new HashSet<>(changedStages);
        out.removeAll(heldCurrent);
        return out;
    }

    /**
     * Two triggers of the same promotion as one: the stages either announces; held current only those neither
     * announces as maybe ahead of its watch.
     */
    PromotionKey and(PromotionKey other) {
        Set<String> changed = new HashSet<>(changedStages);
        changed.addAll(other.changedStages);
        Set<String> current = new HashSet<>(heldCurrent);
        current.addAll(other.heldCurrent);
        current.removeAll(mayBeAhead());
        current.removeAll(other.mayBeAhead());
        return new PromotionKey(namespace, name, approval, other.seen, changed, current);
    }
}
