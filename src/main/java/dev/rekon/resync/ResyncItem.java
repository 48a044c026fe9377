package dev.rekon.resync;

import com.fasterxml.jackson.annotation.JsonInclude;

import dev.rekon.core.ObjectRef;
import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * One object a resync pass changed, pruned, found drifted or failed on.
 *
 * @param result {@code changed}, {@code pruned}, {@code drifted}, {@code conflict} or {@code failed}
 */
@RegisterForReflection
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ResyncItem(ObjectRef object, String result, String reason, String message) {
}
