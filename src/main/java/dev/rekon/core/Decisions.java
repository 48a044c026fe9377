package dev.rekon.core;

import java.util.List;

/**
 * Where every path records the decision it answered with, so that one log lists them all: CloudEvents at the
 * function endpoint and deliveries at the webhook endpoints alike. The status page implements it; the paths that
 * answer depend on this interface only, never on the page.
 */
public interface Decisions {

    /**
     * Records one answer.
     *
     * @param type    what came in: a CloudEvent type, or a webhook's own name ({@code git.push})
     * @param outcome {@code applied}, {@code unchanged}, {@code rejected}, or how the request failed
     *                ({@code invalid}, {@code transient}, ...)
     * @param objects the objects the answer names, for the page's namespace filter
     */
    void record(String type, String outcome, String reason, String message, List<ObjectRef> objects);

    /** Records a reply as its outcome, reason, message and objects. */
    default void record(String type, Reply reply) {
        record(type, reply.outcome().wire(), reply.reason(), reply.message(), reply.objects());
    }
}
