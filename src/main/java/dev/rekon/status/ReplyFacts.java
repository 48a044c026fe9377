package dev.rekon.status;

import java.lang.reflect.RecordComponent;
import java.util.List;

import dev.rekon.core.ObjectRef;
import io.vertx.core.MultiMap;

/**
 * The reason, message and objects of a reply, read from whichever reply record carried the outcome (every area
 * has its own, each with these components); the objects fall back to the event's own {@code ce-kind},
 * {@code ce-namespace} and {@code ce-name} when the reply names none.
 */
public record ReplyFacts(String reason, String message, List<ObjectRef> objects) {

    public static ReplyFacts of(Object reply, MultiMap headers) {
        String reason = component(reply, "reason") instanceof String s ? s : null;
        String message = component(reply, "message") instanceof String s ? s : null;
        List<ObjectRef> objects = component(reply, "objects") instanceof List<?> l
                ? l.stream().filter(ObjectRef.class::isInstance).map(ObjectRef.class::cast).toList() : List.of();
        if (objects.isEmpty() && headers.get("ce-name") != null) {
            objects = List.of(new ObjectRef(headers.get("ce-apiversion"), headers.get("ce-kind"),
                    headers.get("ce-namespace"), headers.get("ce-name")));
        }
        return new ReplyFacts(reason, message, objects);
    }

    private static Object component(Object reply, String name) {
        if (reply == null || !reply.getClass().isRecord()) {
            return null;
        }
        for (RecordComponent c : reply.getClass().getRecordComponents()) {
            if (c.getName().equals(name)) {
                try {
                    return c.getAccessor().invoke(reply);
                } catch (ReflectiveOperationException | RuntimeException e) {
                    return null;
                }
            }
        }
        return null;
    }
}
