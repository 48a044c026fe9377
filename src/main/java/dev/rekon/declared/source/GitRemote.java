package dev.rekon.declared.source;

/**
 * Which branch of which repository is read: an http(s) smart-protocol URL, a branch name (without
 * {@code refs/heads/}; null means {@code main}) and the credentials for it (null means anonymous).
 */
public record GitRemote(String url, String branch, GitCredentials credentials) {

    public GitRemote {
        branch = branch == null || branch.isBlank() ? "main" : branch;
    }

    /** The full ref name of the branch. */
    public String ref() {
        return "refs/heads/" + branch;
    }
}
