package dev.rekon.webhooks;

import java.util.ArrayList;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;

import dev.rekon.core.Reply;
import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * Hands each image push to every {@link PushRouter}, once per event id: a push without a digest gets one from the
 * {@link DigestResolver} first; a push without an event id is identified by its resolved reference, so that a
 * repeated notification of the same tag and digest is a duplicate too.
 */
@ApplicationScoped
public class PushDispatcher {

    public static final String DUPLICATE = "DuplicateDelivery";

    /** One push as routed, with every router's reply. */
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
            ImagePushed resolved = resolve(push);
            if (claimed == null && resolved.digest() != null) {
                claimed = Payloads.derivedId("push", resolved.reference());
                resolved = resolved.withEventId(claimed);
                if (!ledger.claim(claimed)) {
                    claimed = null;
                    return duplicate(resolved);
                }
            }
            List<Reply> replies = new ArrayList<>();
            for (PushRouter router : routers) {
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

    private ImagePushed resolve(ImagePushed push) {
        if (push.digest() != null || push.tag() == null) {
            return push;
        }
        return resolver.resolve(push.registry(), push.repository(), push.tag()).map(push::withDigest).orElse(push);
    }

    private static Routed duplicate(ImagePushed push) {
        return new Routed(push, List.of(Reply.unchanged(DUPLICATE, "event " + push.eventId() + " ("
                + push.reference() + ") was already handled; a redelivery changes nothing", null)));
    }
}
