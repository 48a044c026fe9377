package dev.rekon.webhooks;

import static dev.rekon.webhooks.Payloads.text;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;

import dev.rekon.core.InvalidEventException;

/**
 * CNCF distribution notifications: an envelope {@code {"events":[...]}}; only {@code push} events whose target
 * is a manifest (or index) are image pushes. One image push also sends one event per blob, which are ignored.
 */
public final class DistributionParser implements PayloadParser {

    static final Set<String> MANIFEST_TYPES = Set.of(
            "application/vnd.docker.distribution.manifest.v2+json",
            "application/vnd.docker.distribution.manifest.list.v2+json",
            "application/vnd.docker.distribution.manifest.v1+json",
            "application/vnd.docker.distribution.manifest.v1+prettyjws",
            "application/vnd.oci.image.manifest.v1+json",
            "application/vnd.oci.image.index.v1+json",
            "application/vnd.oci.artifact.manifest.v1+json");

    @Override
    public Delivery parse(JsonNode body, Map<String, String> headers) {
        JsonNode events = body.get("events");
        if (events == null || !events.isArray()) {
            throw new InvalidEventException("distribution notification: the envelope needs an 'events' array");
        }
        List<ImagePushed> pushes = new ArrayList<>();
        List<Delivery.Ignored> ignored = new ArrayList<>();
        for (JsonNode event : events) {
            if (!event.isObject()) {
                throw new InvalidEventException("distribution notification: every element of 'events' must be an object");
            }
            String id = text(event, "id");
            String action = text(event, "action");
            JsonNode target = event.get("target");
            if (!"push".equals(action)) {
                ignored.add(new Delivery.Ignored("NotAPush", "event " + id + " is a '" + action + "', only pushes move images"));
            } else if (target == null || !isManifest(target)) {
                ignored.add(new Delivery.Ignored("NotAManifestPush", "event " + id + " pushed a "
                        + text(target, "mediaType") + " blob; only manifest pushes are image pushes"));
            } else {
                pushes.add(push(event, target, id));
            }
        }
        return new Delivery(pushes, ignored);
    }

    private static boolean isManifest(JsonNode target) {
        String mediaType = text(target, "mediaType");
        String url = text(target, "url");
        return mediaType != null ? MANIFEST_TYPES.contains(mediaType) : url != null && url.contains("/manifests/");
    }

    private static ImagePushed push(JsonNode event, JsonNode target, String id) {
        String what = "distribution event " + id;
        String host = text(event, "request", "host");
        if (host == null) {
            String[] fromUrl = Payloads.hostAndRepository(text(target, "url"));
            host = fromUrl == null ? null : fromUrl[0];
        }
        return new ImagePushed(Payloads.registry(Payloads.required(host, what + ": request.host"), what),
                Payloads.repository(text(target, "repository"), what),
                Payloads.tag(text(target, "tag"), what),
                Payloads.digest(text(target, "digest"), what),
                id);
    }
}
