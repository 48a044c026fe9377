package dev.rekon.webhooks;

import java.util.ArrayList;
import java.util.List;

import jakarta.inject.Inject;

import com.fasterxml.jackson.databind.JsonNode;

import dev.rekon.core.Reply;
import dev.rekon.pipeline.Replies;
import io.quarkus.funqy.Funq;
import io.quarkus.funqy.knative.events.CloudEvent;
import io.quarkus.funqy.knative.events.CloudEventMapping;

/**
 * Harbor's "CloudEvents" payload format posted to Rekon's CloudEvent endpoint (or delivered by a Knative
 * Trigger): exactly the type {@code harbor.artifact.pushed}. Authenticated before it gets here by
 * {@link HarborCloudEventGuard}, with the Harbor token. The reply names, as {@code readFrom}, every field a push was
 * not read from as Harbor documents it.
 */
public class HarborCloudEventFunction {

    public static final String REPLY_TYPE = "dev.rekon.webhooks.result";

    private final HarborParser parser = new HarborParser();

    @Inject
    PushDispatcher dispatcher;

    @Funq("webhooksHarborArtifactPushed")
    @CloudEventMapping(trigger = HarborParser.CLOUDEVENT_TYPE, responseType = REPLY_TYPE)
    public Reply harborArtifactPushed(CloudEvent<JsonNode> event) {
        Delivery delivery = parser.parseCloudEventData(dev.rekon.events.ApiServerEvent.data(event), event.source(), event.id());
        List<Reply> replies = new ArrayList<>();
        for (ImagePushed push : delivery.pushes()) {
            replies.addAll(dispatcher.dispatch(push).replies());
        }
        String readFrom = delivery.pushes().stream().map(ImagePushed::readFrom).filter(java.util.Objects::nonNull)
                .distinct().collect(java.util.stream.Collectors.joining("; "));
        return Replies.combine(replies, Reply.unchanged("NoImagePush", "the event reported no image push", List.of()))
                .with("readFrom", readFrom.isEmpty() ? null : readFrom);
    }
}
