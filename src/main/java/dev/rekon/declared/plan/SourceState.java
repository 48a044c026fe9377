package dev.rekon.declared.plan;

import java.time.Instant;
import java.util.List;

import dev.rekon.declared.source.DeclaredDocument;

/** What was read of a DeclaredState's branch for one attempt. */
public sealed interface SourceState {

    /** {@code spec.suspend}: nothing is read, applied or pruned. */
    record Suspended() implements SourceState {
    }

    /**
     * The branch tip's commit and the documents under {@code spec.git.path}, in path order.
     *
     * @param checked when the tip was last listed, for a report that reads no git (it plans from what the last pass
     *                resolved); null when it was listed for this very input
     */
    record Read(String commit, List<DeclaredDocument> documents, Instant checked) implements SourceState {
        public Read {
            documents = List.copyOf(documents);
        }

        public Read(String commit, List<DeclaredDocument> documents) {
            this(commit, documents, null);
        }
    }

    /** A report that reads no git, for a DeclaredState whose tip no pass of this replica has listed yet. */
    record Unchecked() implements SourceState {
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
