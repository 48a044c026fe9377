package dev.rekon.declared;

import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.context.ApplicationScoped;

import dev.rekon.declared.source.GitRemote;

/**
 * The tip of each repository, branch and credentials the last input of this replica listed, and when: what a
 * report plans from, so that the page and a report-mode resync read no git. Any DeclaredState following that
 * branch with those credentials shares it, as it shares the listing within a pass.
 */
@ApplicationScoped
public class LastTips {

    /**
     * A tip listed: its commit, or the refusal of the listing (reason and message; the commit is then null), at
     * {@code at}.
     */
    public record Checked(String commit, String reason, String message, Instant at) {
    }

    private final Map<String, Checked> byRemote = new ConcurrentHashMap<>();

    public void record(GitRemote remote, Checked checked) {
        byRemote.put(TipMemo.id(remote), checked);
    }

    /** The last tip listed of the remote, if any. */
    public Optional<Checked> of(GitRemote remote) {
        return Optional.ofNullable(byRemote.get(TipMemo.id(remote)));
    }
}
