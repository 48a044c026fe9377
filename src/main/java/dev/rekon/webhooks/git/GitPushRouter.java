package dev.rekon.webhooks.git;

import dev.rekon.core.Reply;

/**
 * Decides what one branch push triggers: the extension point between the git webhook endpoint and whatever follows
 * git branches (DeclaredStates). Implemented by one CDI bean, which finds the objects that follow one of
 * {@link GitPush#repositoryUrls()} (compare with {@link RepoUrls#normalise}) at {@link GitPush#branch()} and
 * reads the branch tip itself; the payload's {@code after} is never applied. The endpoint calls it once per
 * delivery id, never for a deleted branch, a tag or a refused request.
 * <p>
 * Answers with its own {@link Reply} ({@code unchanged} / {@value #NO_DECLARED_STATE} when nothing follows the
 * branch); throws {@link dev.rekon.core.TransientFailureException} when the host should redeliver (503, the
 * delivery id is released) and {@link dev.rekon.core.InvalidEventException} for a push it cannot act on (400).
 */
public interface GitPushRouter {

    /** The reason of the reply when nothing follows the pushed branch; the endpoint answers it without a router. */
    String NO_DECLARED_STATE = "NoDeclaredState";

    Reply pushed(GitPush push);
}
