package dev.rekon.web;

import dev.rekon.core.ObjectRef;
import dev.rekon.core.Outcome;
import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * Jackson-mapped types that are written through Vert.x's or a plain ObjectMapper, where neither Funqy nor an
 * annotation on the type registers them for reflection in the native image. Only {@code core/}'s types are
 * named here; an area's own types carry the annotation themselves, so that no arrow runs up from {@code web/}.
 */
@RegisterForReflection(targets = { ObjectRef.class, Outcome.class })
final class NativeRegistrations {

    private NativeRegistrations() {
    }
}
