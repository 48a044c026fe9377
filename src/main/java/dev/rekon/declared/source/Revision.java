package dev.rekon.declared.source;

import java.util.List;

/** The declared state at one commit: its full sha and every object under the read path, in path order. */
public record Revision(String commit, List<DeclaredDocument> documents) {

    public Revision {
        documents = List.copyOf(documents);
    }
}
