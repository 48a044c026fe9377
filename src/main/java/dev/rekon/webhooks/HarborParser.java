package dev.rekon.webhooks;

import static dev.rekon.webhooks.Payloads.text;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

import dev.rekon.core.InvalidEventException;
import dev.rekon.web.StructuredCloudEvents;

/**
 * Harbor webhooks in the payload formats a Harbor policy can choose: "Default" ({@code type: PUSH_ARTIFACT} in
 * Harbor 2.x, {@code pushImage} in Harbor 1.x, both with {@code event_data}) and "CloudEvents" (structured,
 * {@code type: harbor.artifact.pushed}, {@code data}). Harbor's default format carries no event id, so one is
 * derived from the registry, repository, tag, digest, push time and operator.
 */
public final class HarborParser implements PayloadParser {

    public static final String PUSH_ARTIFACT = "PUSH_ARTIFACT";
    /** Harbor 1.x's name for the same event. */
    public static final String PUSH_IMAGE = "pushImage";
    public static final String CLOUDEVENT_TYPE = "harbor.artifact.pushed";

    @Override
    public Delivery parse(JsonNode body, Map<String, String> headers) {
        return body.has("specversion") ? parseCloudEvent(body) : parseDefault(body);
    }

    Delivery parseDefault(JsonNode body) {
        String type = text(body, "type");
        if (!PUSH_ARTIFACT.equals(type) && !PUSH_IMAGE.equals(type)) {
            return Delivery.ignored("NotAPush", "Harbor event type '" + type + "' is not " + PUSH_ARTIFACT
                    + " (Harbor 2.x) or " + PUSH_IMAGE + " (Harbor 1.x)");
        }
        JsonNode occurAt = body.get("occur_at");
        return pushes(Payloads.object(body, "event_data", "Harbor " + type), "Harbor " + type,
                (occurAt == null ? null : occurAt.asText()) + "\n" + text(body, "operator"), null);
    }

    /**
     * The structured CloudEvent as Harbor posts it: attributes and {@code data} in one JSON object, validated by
     * the CloudEvents SDK first.
     */
    public Delivery parseCloudEvent(JsonNode event) {
        String type = text(event, "type");
        if (!CLOUDEVENT_TYPE.equals(type)) {
            return Delivery.ignored("NotAPush", "Harbor CloudEvent type '" + type + "' is not " + CLOUDEVENT_TYPE);
        }
        String problem = StructuredCloudEvents.problem(event.toString().getBytes(StandardCharsets.UTF_8));
        if (problem != null) {
            throw new InvalidEventException("Harbor CloudEvent: " + problem);
        }
        String id = text(event, "id");
        String source = text(event, "source");
        return pushes(Payloads.object(event, "data", "Harbor CloudEvent"), "Harbor CloudEvent " + id, null,
                (source == null ? "" : source + "#") + id);
    }

    /** The CloudEvent's data alone, as Funqy hands it over, with the event's source and id. */
    public Delivery parseCloudEventData(JsonNode data, String source, String id) {
        if (data == null || !data.isObject()) {
            throw new InvalidEventException("Harbor CloudEvent " + id + ": 'data' must be a JSON object");
        }
        return pushes(data, "Harbor CloudEvent " + id, null, (source == null ? "" : source + "#") + id);
    }

    private static Delivery pushes(JsonNode eventData, String what, String occurAt, String eventId) {
        JsonNode repository = Payloads.object(eventData, "repository", what);
        String fullName = text(repository, "repo_full_name");
        if (fullName == null && text(repository, "namespace") != null && text(repository, "name") != null) {
            fullName = text(repository, "namespace") + "/" + text(repository, "name");
        }
        JsonNode resources = eventData.get("resources");
        if (resources == null || !resources.isArray() || resources.isEmpty()) {
            throw new InvalidEventException(what + ": 'resources' must be a non-empty array");
        }
        List<ImagePushed> pushes = new ArrayList<>();
        for (JsonNode resource : resources) {
            ImagePushed push = HarborResources.read(resource, fullName, what);
            String id = eventId != null ? eventId + "/" + push.tag() + "@" + push.digest()
                    : Payloads.derivedId("harbor", push.registry(), push.repository(), push.tag(), push.digest(), occurAt);
            pushes.add(push.withEventId(id));
        }
        return new Delivery(pushes, List.of());
    }
}
