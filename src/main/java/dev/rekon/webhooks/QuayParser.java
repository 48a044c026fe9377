package dev.rekon.webhooks;

import static dev.rekon.webhooks.Payloads.text;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

import dev.rekon.core.InvalidEventException;

/**
 * Quay "Repository Push" notifications: one push reporting every tag it updated. {@code updated_tags} is a list
 * of tag names (current Quay) or an object keyed by tag (older Quay, whose values are image ids, not manifest
 * digests); either way the digest is read from the registry. Quay sends no event id.
 */
public final class QuayParser implements PayloadParser {

    @Override
    public Delivery parse(JsonNode body, Map<String, String> headers) {
        String what = "Quay repository push";
        String repository = Payloads.repository(text(body, "repository"), what + ": repository");
        String[] hostAndRepo = Payloads.hostAndRepository(text(body, "docker_url"));
        if (hostAndRepo == null) {
            throw new InvalidEventException(what + ": 'docker_url' (host/namespace/repository) is missing");
        }
        String registry = Payloads.registry(hostAndRepo[0], what);
        List<ImagePushed> pushes = new ArrayList<>();
        for (String tag : tags(body.get("updated_tags"), what)) {
            pushes.add(new ImagePushed(registry, repository, Payloads.tag(tag, what), null, null));
        }
        if (pushes.isEmpty()) {
            return Delivery.ignored("NoTags", what + " to " + repository + " updated no tags");
        }
        return new Delivery(pushes, List.of());
    }

    private static List<String> tags(JsonNode updated, String what) {
        List<String> tags = new ArrayList<>();
        if (updated == null || updated.isNull()) {
            return tags;
        }
        if (updated.isArray()) {
            for (JsonNode t : updated) {
                if (!t.isTextual()) {
                    throw new InvalidEventException(what + ": 'updated_tags' must hold tag names");
                }
                tags.add(t.asText());
            }
        } else if (updated.isObject()) {
            for (Iterator<String> names = updated.fieldNames(); names.hasNext();) {
                tags.add(names.next());
            }
        } else {
            throw new InvalidEventException(what + ": 'updated_tags' must be a list of tag names");
        }
        return tags;
    }
}
