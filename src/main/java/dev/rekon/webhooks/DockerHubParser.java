package dev.rekon.webhooks;

import static dev.rekon.webhooks.Payloads.text;

import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Docker Hub repository webhooks: one push of one tag to {@code docker.io}. The repository is {@code repo_name},
 * else {@code namespace/name}, else {@code name} alone (an official image, {@code library/<name>}). The payload
 * has no digest (it is read from the registry when a subscriber needs it) and no id, so the id is derived from
 * repository, tag, {@code pushed_at}, {@code pusher} and {@code callback_url}.
 */
public final class DockerHubParser implements PayloadParser {

    public static final String REGISTRY = "docker.io";

    @Override
    public Delivery parse(JsonNode body, Map<String, String> headers) {
        String what = "Docker Hub webhook";
        JsonNode pushData = Payloads.object(body, "push_data", what);
        JsonNode repository = Payloads.object(body, "repository", what);
        String name = text(repository, "repo_name");
        if (name == null && text(repository, "name") != null) {
            name = text(repository, "namespace") == null ? text(repository, "name")
                    : text(repository, "namespace") + "/" + text(repository, "name");
        }
        if (name != null && !name.contains("/")) {
            name = "library/" + name;
        }
        Payloads.repository(name, what + ": repository.repo_name (or namespace and name)");
        String tag = Payloads.tag(Payloads.required(text(pushData, "tag"), what + ": push_data.tag"), what);
        JsonNode pushedAt = pushData.get("pushed_at");
        return Delivery.of(new ImagePushed(REGISTRY, name, tag, null, Payloads.derivedId("dockerhub", REGISTRY, name,
                tag, pushedAt == null ? null : pushedAt.asText(), text(pushData, "pusher"), text(body, "callback_url"))));
    }
}
