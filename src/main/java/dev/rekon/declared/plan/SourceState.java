package dev.rekon.declared.plan;

import java.util.List;

import dev.rekon.declared.source.DeclaredDocument;

/** What was read of a DeclaredState's branch for one attempt. */
public sealed interface SourceState {

    /** {@code spec.suspend}: nothing is read, applied or pruned. */
    record Suspended() implements SourceState {
    }

    /** The branch tip's commit and the documents under {@code spec.git.path}, in path order. */
    record Read(String commit, List<DeclaredDocument> documents) implements SourceState {
        public Read {
            documents = List.copyOf(documents);
        }
    }

    /**
     * The branch could not be read for good (no such repository or branch, credentials refused) or its content is
     * refused (a file that does not parse, a limit passed): the last good revision stays, nothing is pruned.
     *
     * @param commit the tip that was refused, or null when none was read
     */
    record Refused(String reason, String message, String commit) implements SourceState {
    }

    /** The DeclaredState is being deleted: its branch is not read. */
    record Deleting() implements SourceState {
    }
}
