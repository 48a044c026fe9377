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
 * names a component version to publish ({@link PublishService}). Answers with a {@code dev.rekon.modules.result}.
 */
public class PublishFunctions {

    public static final String PUBLISH_TYPE = "dev.rekon.modules.publish";
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
}
