package dev.rekon.declared;

import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.context.ApplicationScoped;

import dev.rekon.declared.intent.DeclaredStateView;
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

    /** The remote a DeclaredState's last input read, as its spec named it then. */
    private record Used(String url, String branch, String secret, String remote) {
    }

    private final Map<String, Checked> byRemote = new ConcurrentHashMap<>();
    private final Map<String, Used> byState = new ConcurrentHashMap<>();

    public void record(GitRemote remote, Checked checked) {
        byRemote.put(TipMemo.id(remote), checked);
    }

    /** The DeclaredState's input read that remote (its credentials included). */
    public void used(DeclaredStateView state, GitRemote remote) {
        byState.put(state.namespace() + "/" + state.name(), new Used(state.url(), state.branch(), state.secretName(),
                TipMemo.id(remote)));
    }

    /**
     * The last tip listed of the remote the DeclaredState's last input read, while its spec still names that
     * repository, branch and Secret: what the page plans from without reading the Secret again.
     */
    public Optional<Checked> usedBy(DeclaredStateView state) {
        Used u = byState.get(state.namespace() + "/" + state.name());
        return u == null || !u.equals(new Used(state.url(), state.branch(), state.secretName(), u.remote()))
                ? Optional.empty() : Optional.ofNullable(byRemote.get(u.remote()));
    }

    /** The last tip listed of the remote, if any. */
    public Optional<Checked> of(GitRemote remote) {
        return Optional.ofNullable(byRemote.get(TipMemo.id(remote)));
    }
}
