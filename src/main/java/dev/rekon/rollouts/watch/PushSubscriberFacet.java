package dev.rekon.rollouts.watch;

import java.util.Collection;

import jakarta.inject.Singleton;

import com.fasterxml.jackson.databind.JsonNode;

import dev.rekon.cluster.watch.KindFacet;
import dev.rekon.rollouts.view.PushSubscriber;

/**
 * Rekon's ImageDeploys as registry pushes read them: a {@link PushSubscriber} for each one with an update policy
 * and a container naming a repository directly, found by those repositories; none for the others.
 */
@Singleton
public class PushSubscriberFacet extends KindFacet<PushSubscriber> {

    public PushSubscriberFacet() {
        super(new ImageDeployFacet.Rekon().kind());
    }

    @Override
    public PushSubscriber view(JsonNode object) {
        PushSubscriber s = PushSubscriber.of(object);
        return s.repositories().isEmpty() ? null : s;
    }

    @Override
    public Collection<String> indexKeys(PushSubscriber view) {
        return view.repositories();
    }
}
