package dev.rekon.declared.source;

import java.util.Optional;

/**
 * Where declared state comes from: the commit a branch points at now, with its objects. Errors
 * arrive already sorted: {@link dev.rekon.core.RefusedException} (a {@link RevisionRefusedException} for content)
 * when only a change to the repository or its settings can help, {@link dev.rekon.core.TransientFailureException}
 * when a retry may.
 */
public interface GitSource {

    /**
     * The branch's tip and its objects under {@code path}, or empty when the branch does not exist: the tip from the
     * on-disk cache when present, else one shallow (depth 1) fetch of that one branch. {@code path} is a folder
     * relative to the repository root; null, empty or {@code "."} is the root.
     */
    Optional<Revision> readTip(GitRemote remote, String path);

    /**
     * The branch's tip commit, or empty when the branch does not exist: one listing of the branch (what an
     * ls-remote costs), and, when the cache lacks that commit, its shallow fetch on the same connection, so that
     * {@link #read} then finds it without the network.
     */
    Optional<String> resolveTip(GitRemote remote);

    /**
     * The objects under {@code path} at {@code commit}, read from the on-disk cache alone (no network). A commit
     * the cache no longer holds (removed since it was resolved) is a transient failure: the next input resolves and
     * fetches again.
     */
    Revision read(GitRemote remote, String commit, String path);
}
