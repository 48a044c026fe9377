package dev.rekon.declared;

import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.rekon.core.RefusedException;
import dev.rekon.declared.apply.DeclaredGateway;
import dev.rekon.declared.intent.DeclaredStateView;
import dev.rekon.declared.plan.SourceState;
import dev.rekon.declared.source.GitCredentials;
import dev.rekon.declared.source.GitRemote;
import dev.rekon.declared.source.GitSource;
import dev.rekon.declared.source.Revision;
import dev.rekon.declared.source.RevisionRefusedException;

/**
 * Reads what a DeclaredState's branch holds now: its credentials, the tip (ls-remote), and the tip's documents
 * (from the on-disk cache, or one shallow fetch). A permanent failure (no such repository or branch, credentials
 * refused, content refused) becomes a {@link SourceState.Refused} the planner answers; a transient one (the git
 * server unreachable) is thrown, so the event is redelivered and nothing is pruned.
 */
@ApplicationScoped
public class BranchReader {

    @Inject
    GitSource git;

    @Inject
    DeclaredGateway gateway;

    public SourceState read(DeclaredStateView s) {
        if (s.suspend()) {
            return new SourceState.Suspended();
        }
        GitCredentials credentials = null;
        if (s.secretName() != null) {
            Optional<GitCredentials> found = gateway.credentials(s.namespace(), s.secretName());
            if (found.isEmpty()) {
                return new SourceState.Refused("SecretNotFound", "Secret " + s.namespace() + "/" + s.secretName()
                        + " (spec.git.secretRef) does not exist or has no 'password' key", null);
            }
            credentials = found.get();
        }
        GitRemote remote = new GitRemote(s.url(), s.branch(), credentials);
        try {
            Optional<Revision> tip = git.readTip(remote, s.path());
            if (tip.isEmpty()) {
                return new SourceState.Refused("BranchNotFound", s.url() + " has no branch '" + s.branch()
                        + "'; push it, or set spec.git.branch", null);
            }
            return new SourceState.Read(tip.get().commit(), tip.get().documents());
        } catch (RevisionRefusedException e) {
            return new SourceState.Refused(e.reason(), e.getMessage(), e.commit());
        } catch (RefusedException e) {
            String reason = e.code() == 401 || e.code() == 403 ? "AuthenticationFailed"
                    : e.code() == 404 ? "GitRepositoryNotFound" : "GitRefused";
            return new SourceState.Refused(reason, e.getMessage(), null);
        }
    }
}
