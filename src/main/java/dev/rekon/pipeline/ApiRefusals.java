package dev.rekon.pipeline;

import java.util.List;
import java.util.function.Supplier;

import dev.rekon.cluster.KubeErrors.PermanentApiException;
import dev.rekon.core.ObjectRef;
import dev.rekon.core.Reply;

/**
 * The one boundary where a permanent refusal by the API server (403, 404 of a kind, 422, ...) becomes an answer:
 * {@code rejected} with reason {@value #REASON} and the server's message, HTTP 200, so Knative does not redeliver
 * an event no retry can help. Applied per object, so that one refused object does not hide what was done to others.
 */
public final class ApiRefusals {

    public static final String REASON = "ApiRefused";

    private ApiRefusals() {
    }

    public static Reply asReply(List<ObjectRef> objects, Supplier<Reply> work) {
        try {
            return work.get();
        } catch (PermanentApiException e) {
            return Reply.rejected(REASON, e.getMessage(), objects);
        }
    }
}
