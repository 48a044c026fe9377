package dev.rekon.modules.publish.plan;

import java.util.List;

import dev.rekon.core.ObjectRef;
import dev.rekon.core.Reply;
import dev.rekon.pipeline.Reconciler;

/**
 * What one publication writes, in order: the ModuleTemplate (null: none), the ModuleReleaseMeta's own fields (null:
 * none), then each channel entry moved, each applied on its own; the Events that tell of it, and the reply.
 * A refusal writes nothing.
 */
public record PublishPlan(TemplateDraft template, ReleaseMetaDraft releaseMeta, List<ChannelMove> moves,
        List<Note> events, Reply reply) implements Reconciler.Plan {

    /**
     * A channel entry moved from one version (null: new) to another; {@code note}, when not null, is recorded in
     * the release meta's annotation {@value #NOTE_ANNOTATION_PREFIX}{@code <channel>} by the same apply.
     */
    public record ChannelMove(String namespace, String module, String component, String channel, String from,
            String to, String note) {

        public ChannelMove(String namespace, String module, String component, String channel, String from, String to) {
            this(namespace, module, component, channel, from, to, null);
        }
    }

    /** Prefix of the release meta's annotations that say how each channel came to its version. */
    public static final String NOTE_ANNOTATION_PREFIX = "rekon.dev/channel.";

    /** A Normal Event on an object, once the writes stood. */
    public record Note(ObjectRef about, String reason, String message) {
    }

    public PublishPlan {
        moves = List.copyOf(moves);
        events = List.copyOf(events);
    }

    public static PublishPlan only(Reply reply) {
        return new PublishPlan(null, null, List.of(), List.of(), reply);
    }

    public boolean writes() {
        return template != null || releaseMeta != null || !moves.isEmpty();
    }
}
