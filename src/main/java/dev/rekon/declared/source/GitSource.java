package dev.rekon.declared.source;

import java.util.Optional;

/**
 * Where declared state comes from: which commit a branch points at now, and the objects at a commit. Errors
 * arrive already sorted: {@link dev.rekon.core.RefusedException} (a {@link RevisionRefusedException} for content)
 * when only a change to the repository or its settings can help, {@link dev.rekon.core.TransientFailureException}
 * when a retry may.
 */
public interface GitSource {

    /** ls-remote of refs/heads/&lt;branch&gt;: the tip commit, or empty when the branch does not exist. No fetch. */
    Optional<String> tip(GitRemote remote);

    /**
     * The objects of that commit under path: from the on-disk cache when present, else one shallow (depth 1)
     * fetch of that one branch. {@code path} is a folder relative to the repository root; null, empty or
     * {@code "."} is the root.
     */
    Revision read(GitRemote remote, String commit, String path);

    /**
     * The branch's tip and its objects under path, or empty when the branch does not exist: {@link #tip} then
     * {@link #read}, which a source may do in fewer round trips.
     */
    default Optional<Revision> readTip(GitRemote remote, String path) {
        Optional<String> tip = tip(remote);
        return tip.isEmpty() ? Optional.empty() : Optional.of(read(remote, tip.get(), path));
    }
}
