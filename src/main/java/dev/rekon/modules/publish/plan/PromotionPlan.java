package dev.rekon.modules.publish.plan;

import java.util.List;
import java.util.Map;

import dev.rekon.core.ObjectRef;
import dev.rekon.core.Reply;
import dev.rekon.modules.publish.plan.PublishPlan.ChannelMove;
import dev.rekon.pipeline.Reconciler;

/**
 * What the promotions of one module write, in order: the release meta's promotion annotations (null: unchanged;
 * else every one of them, applied guarded by {@code resourceVersion}), then each channel moved; the Events that
 * tell of a changed state, the report ({@code GET /modules}) and the reply.
 */
public record PromotionPlan(ObjectRef releaseMeta, String resourceVersion, Map<String, String> annotations,
        List<ChannelMove> moves, List<Notice> events, ModuleReport report, Reply reply) implements Reconciler.Plan {

    /** An Event on the release meta; a warning when something blocks a promotion. */
    public record Notice(boolean warning, String reason, String message) {
    }

    public PromotionPlan {
        annotations = annotations == null ? null : Map.copyOf(annotations);
        moves = List.copyOf(moves);
        events = List.copyOf(events);
    }

    public boolean writes() {
        return annotations != null || !moves.isEmpty();
    }
}
