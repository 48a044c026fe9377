package dev.rekon.declared;

import java.time.Clock;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.rekon.core.RefusedException;
import dev.rekon.core.TransientFailureException;
import dev.rekon.declared.apply.DeclaredGateway;
import dev.rekon.declared.intent.DeclaredStateView;
import dev.rekon.declared.plan.SourceState;
import dev.rekon.declared.source.GitCredentials;
import dev.rekon.declared.source.GitRemote;
import dev.rekon.declared.source.GitSource;
import dev.rekon.declared.source.Revision;
import dev.rekon.declared.source.RevisionRefusedException;

/**
 * Reads what a DeclaredState's branch holds for one input: its credentials, the tip (listed once per input and
 * remote, {@link TipMemo}), and the tip's documents, read by commit from the on-disk cache. A permanent failure
 * (no such repository or branch, credentials refused, content refused) becomes a {@link SourceState.Refused} the
 * planner answers; a transient one (the git server unreachable) is thrown, so the event is redelivered and nothing
 * is pruned. A report reads no git: it plans from the tip the last input resolved ({@link LastTips}); the page
 * reads no Secret either: the tip and credentials the DeclaredState's own last input used stand.
 */
@ApplicationScoped
public class BranchReader {

    @Inject
    GitSource git;

    @Inject
    DeclaredGateway gateway;

    @Inject
    LastTips lastTips;

    @Inject
    Clock clock;

    public SourceState read(DeclaredStateView s, TipMemo memo) {
        if (s.suspend()) {
            return new SourceState.Suspended();
        }
        if (memo.holds()) {
            // The commit is read from the cache alone, so the remote needs no credentials: they were checked when
            // this DeclaredState's own input, naming the same repository, branch and Secret, listed the tip.
            return lastTips.usedBy(s).map(c -> checked(new GitRemote(s.url(), s.branch(), null), c, s.path(), memo))
                    .orElseGet(SourceState.Unchecked::new);
        }
        GitCredentials credentials = null;
        if (s.secretName() != null) {
            Optional<GitCredentials> found = memo.credentials(s.namespace(), s.secretName(),
                    () -> gateway.credentials(s.namespace(), s.secretName()));
            if (found.isEmpty()) {
                return new SourceState.Refused("SecretNotFound", "Secret " + s.namespace() + "/" + s.secretName()
                        + " (spec.git.secretRef) does not exist or has no 'password' key", null);
            }
            credentials = found.get();
        }
        GitRemote remote = new GitRemote(s.url(), s.branch(), credentials);
        lastTips.used(s, remote);
        if (!memo.resolves()) {
            return lastKnown(remote, s.path(), memo);
        }
        try {
            Optional<String> tip = memo.tip(remote, () -> git.resolveTip(remote));
            if (tip.isEmpty()) {
                return refused(remote, "BranchNotFound", s.url() + " has no branch '" + s.branch()
                        + "'; push it, or set spec.git.branch");
            }
            lastTips.record(remote, new LastTips.Checked(tip.get(), null, null, clock.instant()));
            return documents(remote, tip.get(), s.path(), memo, null);
        } catch (RefusedException e) {
            // The git source's refusal is the DeclaredState's answer: Ready=False with the reason the source sorted.
            return refused(remote, e.reason() == null ? "GitRefused" : e.reason(), e.getMessage());
        }
    }

    private SourceState documents(GitRemote remote, String commit, String path, TipMemo memo, java.time.Instant checked) {
        try {
            Revision r = memo.revision(remote, commit, path, () -> git.read(remote, commit, path));
            return new SourceState.Read(r.commit(), r.documents(), checked);
        } catch (RevisionRefusedException e) {
            // A revision's content refused is the DeclaredState's answer: Ready=False naming the file and the commit.
            return new SourceState.Refused(e.reason(), e.getMessage(), e.commit());
        }
    }

    private SourceState refused(GitRemote remote, String reason, String message) {
        lastTips.record(remote, new LastTips.Checked(null, reason, message, clock.instant()));
        return new SourceState.Refused(reason, message, null);
    }

    /** The tip the last input listed, its documents from the cache; none listed yet (or evicted since): unchecked. */
    private SourceState lastKnown(GitRemote remote, String path, TipMemo memo) {
        return lastTips.of(remote).map(c -> checked(remote, c, path, memo)).orElseGet(SourceState.Unchecked::new);
    }

    private SourceState checked(GitRemote remote, LastTips.Checked c, String path, TipMemo memo) {
        if (c.commit() == null) {
            return new SourceState.Refused(c.reason(), c.message() + " (tip not checked since " + c.at() + ")", null);
        }
        try {
            return documents(remote, c.commit(), path, memo, c.at());
        } catch (TransientFailureException e) {
            // Without a resolve this time, a tip no longer cached is unknown now; the next resolve reads it again.
            return new SourceState.Unchecked();
        }
    }
}
