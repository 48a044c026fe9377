package dev.rekon.webhooks;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;

import dev.rekon.core.Reply;
import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * Hands each image push, once per event id, to the routers that subscribe to its repository: every router is
 * asked from its index first, so a push nobody subscribes to is answered {@value #NO_SUBSCRIBER} without a
 * registry request or an API write. Only when a subscriber needs a digest the payload lacks is it read, once
 * per push, with the subscribers' pull secrets. A push without an event id is identified by its resolved
 * reference, so that a repeated notification of the same tag and digest is a duplicate too.
 */
@ApplicationScoped
public class PushDispatcher {

    public static final String DUPLICATE = "DuplicateDelivery";
    public static final String NO_SUBSCRIBER = "NoSubscriber";

    /** One push as routed, with every subscribing router's reply. */
    @RegisterForReflection
    public record Routed(ImagePushed push, List<Reply> replies) {
    }

    @Inject
    @Any
    Instance<PushRouter> routers;

    @Inject
    DigestResolver resolver;

    @Inject
    DeliveryLedger ledger;

    public Routed dispatch(ImagePushed push) {
        String claimed = push.eventId();
        if (claimed != null && !ledger.claim(claimed)) {
            return duplicate(push);
        }
        try {
            Map<PushRouter, Subscription> subscribed = subscriptions(push);
            if (subscribed.isEmpty()) {
                return new Routed(push, List.of(noSubscriber(push)));
            }
            ImagePushed resolved = resolve(push, subscribed.values());
            if (claimed == null && resolved.digest() != null) {
                claimed = Payloads.derivedId("push", resolved.reference());
                resolved = resolved.withEventId(claimed);
                if (!ledger.claim(claimed)) {
                    claimed = null;
                    return duplicate(resolved);
                }
            }
            List<Reply> replies = new ArrayList<>();
            for (PushRouter router : subscribed.keySet()) {
                replies.add(router.route(resolved));
            }
            return new Routed(resolved, replies);
        } catch (RuntimeException e) {
            if (claimed != null) {
                ledger.release(claimed);
            }
            throw e;
        }
    }

    private Map<PushRouter, Subscription> subscriptions(ImagePushed push) {
        Map<PushRouter, Subscription> subscribed = new LinkedHashMap<>();
        for (PushRouter router : routers) {
            Subscription s = router.subscription(push);
            if (s.any()) {
                subscribed.put(router, s);
            }
        }
        return subscribed;
    }

    private ImagePushed resolve(ImagePushed push, Collection<Subscription> subscriptions) {
        if (push.digest() != null || push.tag() == null || subscriptions.stream().noneMatch(Subscription::needsDigest)) {
            return push;
        }
        List<Subscription.PullSecrets> credentials = subscriptions.stream().flatMap(s -> s.pullSecrets().stream())
                .distinct().toList();
        return resolver.resolve(push, credentials).map(push::withDigest).orElse(push);
    }

    static Reply noSubscriber(ImagePushed push) {
        return Reply.unchanged(NO_SUBSCRIBER, "nothing in Rekon subscribes to pushes of " + push.repositoryReference()
                + " (no ImageDeploy with an update policy, Buildpack, ClusterBuildpack, Builder or module names it, and"
                + " no module publication repository holds it)", null);
    }

    private static Routed duplicate(ImagePushed push) {
        return new Routed(push, List.of(Reply.unchanged(DUPLICATE, "event " + push.eventId() + " ("
                + push.reference() + ") was already handled; a redelivery changes nothing", null)));
    }
}
