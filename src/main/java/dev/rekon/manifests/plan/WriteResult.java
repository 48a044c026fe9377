package dev.rekon.manifests.plan;

import java.time.Instant;
import java.util.Map;

import dev.rekon.core.ObjectRef;

/**
 * What the object writes of one attempt came to, for the plan to decide what its owner records after them
 * ({@link ManifestWrites#record}): every write made, or one the server refused for good (only the server knows what
 * the owner's identity may write), with what it said and when.
 */
public sealed interface WriteResult {

    Written WRITTEN = new Written(Map.of());

    /**
     * Every write made.
     *
     * @param applied what the server answered of each object applied, by {@link dev.rekon.manifests.Identity#key}
     *                (none when the writer does not say)
     */
    record Written(Map<String, Applied> applied) implements WriteResult {
        public Written {
            applied = Map.copyOf(applied);
        }
    }

    /**
     * An object as a server-side apply answered it: its uid, and the resourceVersion it has until someone changes
     * it, by which a later read knows it unchanged since.
     */
    record Applied(String uid, String resourceVersion) {
    }

    record Refused(ObjectRef ref, String message, Instant at) implements WriteResult {
    }
}
