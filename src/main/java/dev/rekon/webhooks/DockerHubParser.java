package dev.rekon.webhooks;

import static dev.rekon.webhooks.Payloads.text;

import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Docker Hub repository webhooks: one push of one tag to {@code docker.io}. The payload has no digest (it is
 * read from the registry) and no id, so the id is derived from repository, tag and {@code pushed_at}.
 */
public final class DockerHubParser implements PayloadParser {

    public static final String REGISTRY = "docker.io";

    @Override
    public Delivery parse(JsonNode body, Map<String, String> headers) {
        String what = "Docker Hub webhook";
        JsonNode pushData = Payloads.object(body, "push_data", what);
        JsonNode repository = Payloads.object(body, "repository", what);
        String name = text(repository, "repo_name");
        if (name == null && text(repository, "namespace") != null && text(repository, "name") != null) {
            name = text(repository, "namespace") + "/" + text(repository, "name");
        }
        Payloads.repository(name, what + ": repository.repo_name");
        String tag = Payloads.tag(Payloads.required(text(pushData, "tag"), what + ": push_data.tag"), what);
        JsonNode pushedAt = pushData.get("pushed_at");
        return Delivery.of(new ImagePushed(REGISTRY, name, tag, null,
                Payloads.derivedId("dockerhub", name, tag, pushedAt == null ? null : pushedAt.asText())));
    }
}
