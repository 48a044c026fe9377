package dev.rekon.pipeline;

import java.util.List;
import java.util.function.Supplier;

import dev.rekon.core.ObjectRef;
import dev.rekon.core.RefusedException;
import dev.rekon.core.Reply;

/**
 * How a permanent refusal by the API server (403, 404 of a kind, 422, ...) is answered: {@code rejected} with
 * reason {@value #REASON} and the server's message, HTTP 200, so Knative does not redeliver an event no retry can
 * help. {@link ReconcileLoop} applies it per object; {@link #asReply} is for the few reads outside one object's
 * loop (finding which objects an event concerns).
 */
public final class ApiRefusals {

    public static final String REASON = "ApiRefused";

    private ApiRefusals() {
    }

    public static Reply asReply(List<ObjectRef> objects, Supplier<Reply> work) {
        try {
            return work.get();
        } catch (RefusedException e) {
            return ReconcileLoop.refused(e, objects, java.util.Map.of());
        }
    }
}
