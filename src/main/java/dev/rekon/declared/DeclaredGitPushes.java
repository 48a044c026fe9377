package dev.rekon.declared;

import java.util.ArrayList;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.rekon.cluster.Versioned;
import dev.rekon.cluster.watch.SharedWatches;
import dev.rekon.core.Reply;
import dev.rekon.declared.watch.DeclaredStateFacet;
import dev.rekon.declared.intent.DeclaredStateView;
import dev.rekon.pipeline.Replies;
import dev.rekon.webhooks.git.GitPush;
import dev.rekon.webhooks.git.GitPushRouter;

/**
 * Which DeclaredStates a push concerns (found on the DeclaredStates' watch by repository and branch): those whose {@code spec.git.url} names the pushed repository (in any of
 * its clone, web or ssh forms) and whose branch was pushed, each reconciled on the loop; the loop reads the
 * branch tip itself, never the payload's commit.
 */
@ApplicationScoped
public class DeclaredGitPushes implements GitPushRouter {

    @Inject
    SharedWatches watches;

    @Inject
    DeclaredStateFacet facet;

    @Inject
    DeclaredStateService service;

    @Override
    public Reply pushed(GitPush push) {
        List<String> keys = push.repositoryUrls().stream().map(r -> r + "@" + push.branch()).toList();
        List<Reply> replies = new ArrayList<>();
        TipMemo tips = TipMemo.perInput();
        for (Versioned<DeclaredStateView> v : watches.of(facet).cachedOrListed(null, keys)) {
            DeclaredStateView s = v.view();
            if (push.names(s.url()) && push.branch().equals(s.branch())) {
                replies.add(service.reconcile(new DeclaredKey(s.namespace(), s.name(), false, tips)));
            }
        }
        return Replies.combine(replies, Reply.unchanged(NO_DECLARED_STATE, "no DeclaredState follows "
                + push.repository() + "@" + push.branch(), List.of()));
    }
}
