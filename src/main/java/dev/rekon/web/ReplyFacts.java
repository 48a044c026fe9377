package dev.rekon.web;

import java.util.List;

import dev.rekon.core.ObjectRef;
import dev.rekon.core.Reply;
import io.vertx.core.MultiMap;

/**
 * The reason, message and objects of the reply an event got; the objects fall back to the event's own
 * {@code ce-kind}, {@code ce-namespace} and {@code ce-name} when there was no reply or it names none.
 */
public record ReplyFacts(String reason, String message, List<ObjectRef> objects) {

    public static ReplyFacts of(Object reply, MultiMap headers) {
        Reply r = reply instanceof Reply given ? given : null;
        List<ObjectRef> objects = r == null ? List.of() : r.objects();
        if (objects.isEmpty() && headers.get("ce-name") != null) {
            objects = List.of(new ObjectRef(headers.get("ce-apiversion"), headers.get("ce-kind"),
                    headers.get("ce-namespace"), headers.get("ce-name")));
        }
        return new ReplyFacts(r == null ? null : r.reason(), r == null ? null : r.message(), objects);
    }
}
