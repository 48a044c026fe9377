package dev.rekon.webhooks.git;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Alternative;

import dev.rekon.core.Reply;
import dev.rekon.core.TransientFailureException;

/** Records the branch pushes that reach the router; fails once, transiently, when asked to. */
@Alternative
@ApplicationScoped
public class RecordingGitPushRouter implements GitPushRouter {

    private final List<GitPush> pushed = new CopyOnWriteArrayList<>();
    private final AtomicBoolean failNext = new AtomicBoolean();

    /** Through a method: the test holds a client proxy, whose own fields are not the bean's. */
    public List<GitPush> pushed() {
        return pushed;
    }

    public void failNext() {
        failNext.set(true);
    }

    @Override
    public Reply pushed(GitPush push) {
        if (failNext.getAndSet(false)) {
            throw new TransientFailureException("the API server did not answer", null);
        }
        pushed.add(push);
        return Reply.unchanged("Recorded", "recorded " + push.repository() + "@" + push.branch(), null);
    }
}
