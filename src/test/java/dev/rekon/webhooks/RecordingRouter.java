package dev.rekon.webhooks;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Alternative;

import dev.rekon.core.Reply;

/** Counts what reaches the routers, to prove that refused or duplicate deliveries reach nothing. */
@Alternative
@ApplicationScoped
public class RecordingRouter implements PushRouter {

    private final List<ImagePushed> routed = new CopyOnWriteArrayList<>();

    /** Through a method: the test holds a client proxy, whose own fields are not the bean's. */
    public List<ImagePushed> routed() {
        return routed;
    }

    /** Subscribes to every repository but those under {@code nobody/}, which stand for unsubscribed pushes. */
    @Override
    public Subscription subscription(ImagePushed push) {
        return push.repository().startsWith("nobody/") ? Subscription.NONE
                : new Subscription(List.of("recorder"), true, List.of());
    }

    @Override
    public Reply route(ImagePushed push) {
        routed.add(push);
        return Reply.unchanged("Recorded", "recorded " + push.reference(), null);
    }
}
