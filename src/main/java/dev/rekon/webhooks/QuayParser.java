package dev.rekon.webhooks;

import static dev.rekon.webhooks.Payloads.text;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

import dev.rekon.core.InvalidEventException;

/**
 * Quay "Repository Push" notifications: one push reporting every tag it updated, each routed as one push. The
 * registry is the host of {@code docker_url}, else {@code quay.io} (what Quay means by {@code repository}).
 * {@code updated_tags} is a list of tag names (current Quay) or an object keyed by tag (older Quay, whose values
 * are image ids, not manifest digests); either way the digest is read from the registry when a subscriber needs
 * it. Quay sends no event id: the dispatcher identifies each push by its resolved reference.
 */
public final class QuayParser implements PayloadParser {

    public static final String QUAY_IO = "quay.io";

    @Override
    public Delivery parse(JsonNode body, Map<String, String> headers) {
        String what = "Quay repository push";
        String repository = Payloads.repository(text(body, "repository"), what + ": repository");
        String[] hostAndRepo = Payloads.hostAndRepository(text(body, "docker_url"));
        String registry = Payloads.registry(hostAndRepo == null ? QUAY_IO : hostAndRepo[0], what);
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
