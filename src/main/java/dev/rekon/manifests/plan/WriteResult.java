package dev.rekon.manifests.plan;

import java.time.Instant;

import dev.rekon.core.ObjectRef;

/**
 * What the object writes of one attempt came to, for the plan to decide what its owner records after them
 * ({@link ManifestWrites#record}): every write made, or one the server refused for good (only the server knows what
 * the owner's identity may write), with what it said and when.
 */
public sealed interface WriteResult {

    Written WRITTEN = new Written();

    record Written() implements WriteResult {
    }

    record Refused(ObjectRef ref, String message, Instant at) implements WriteResult {
    }
}
