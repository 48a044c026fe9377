package dev.rekon.modules.publish;

import jakarta.inject.Inject;

import com.fasterxml.jackson.databind.JsonNode;

import dev.rekon.core.InvalidEventException;
import dev.rekon.core.Reply;
import dev.rekon.events.ApiServerEvent;
import io.quarkus.funqy.Funq;
import io.quarkus.funqy.knative.events.CloudEvent;
import io.quarkus.funqy.knative.events.CloudEventMapping;

/**
 * The {@value #PUBLISH_TYPE} event, for curl and CI: {@code {"repository": "<host>/<path>", "version": "<tag>"}}
 * names a component version to publish ({@link PublishService}); {@value #PROMOTE_TYPE} moves a channel to a
 * published version by hand. Answers with a {@code dev.rekon.modules.result}.
 */
public class PublishFunctions {

    public static final String PUBLISH_TYPE = "dev.rekon.modules.publish";
    public static final String PROMOTE_TYPE = "dev.rekon.modules.promote";
    static final String REPLY_TYPE = "dev.rekon.modules.result";
    static final String SOURCE = "rekon/modules";

    @Inject
    PublishService service;

    @Funq
    @CloudEventMapping(trigger = PUBLISH_TYPE, responseType = REPLY_TYPE, responseSource = SOURCE)
    public Reply modulesPublish(CloudEvent<JsonNode> event) {
        JsonNode data = ApiServerEvent.data(event);
        String repository = data == null ? "" : data.path("repository").asText("");
        String version = data == null ? "" : data.path("version").asText("");
        if (repository.isBlank() || version.isBlank()) {
            throw new InvalidEventException(PUBLISH_TYPE + " needs JSON data {\"repository\": \"<host>/<path>/"
                    + "component-descriptors/<component>\", \"version\": \"<tag>\"}");
        }
        return service.publish(repository, version);
    }

    /** {@value #PROMOTE_TYPE} with {@code {"module", "channel", "version"}}: a channel moved by hand. */
    @Funq
    @CloudEventMapping(trigger = PROMOTE_TYPE, responseType = REPLY_TYPE, responseSource = SOURCE)
    public Reply modulesPromote(CloudEvent<JsonNode> event) {
        JsonNode data = ApiServerEvent.data(event);
        String module = data == null ? "" : data.path("module").asText("");
        String channel = data == null ? "" : data.path("channel").asText("");
        String version = data == null ? "" : data.path("version").asText("");
        if (module.isBlank() || channel.isBlank() || version.isBlank()) {
            throw new InvalidEventException(PROMOTE_TYPE + " needs JSON data {\"module\": \"<module>\","
                    + " \"channel\": \"<channel>\", \"version\": \"<published version>\"}");
        }
        return service.promote(module, channel, version);
    }
}
