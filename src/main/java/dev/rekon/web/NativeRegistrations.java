package dev.rekon.web;

import dev.rekon.core.ObjectRef;
import dev.rekon.core.Outcome;
import dev.rekon.webhooks.Delivery;
import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * Jackson-mapped types that are written through Vert.x's or a plain ObjectMapper, where neither Funqy nor an
 * annotation on the type registers them for reflection in the native image.
 */
@RegisterForReflection(targets = { ObjectRef.class, Outcome.class, Delivery.class, Delivery.Ignored.class })
final class NativeRegistrations {

    private NativeRegistrations() {
    }
}
