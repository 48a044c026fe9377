package dev.rekon.buildpacks;

import java.util.List;
import java.util.Optional;

import jakarta.inject.Inject;

import com.fasterxml.jackson.databind.JsonNode;

import dev.rekon.cluster.InstalledKinds;
import dev.rekon.core.InvalidEventException;
import dev.rekon.core.NamespacePolicy;
import dev.rekon.core.ObjectRef;
import dev.rekon.core.RekonConfig;
import dev.rekon.core.Reply;
import dev.rekon.events.ApiServerEvent;
import dev.rekon.registry.ImageReference;
import io.quarkus.funqy.Funq;
import io.quarkus.funqy.knative.events.CloudEvent;
import io.quarkus.funqy.knative.events.CloudEventMapping;
import io.quarkus.funqy.knative.events.EventAttribute;

/**
 * The buildpack-publication functions: ApiServerSource events for Buildpack, ClusterBuildpack, Builder and
 * ClusterBuilder, and the manual {@value #PUBLISHED_TYPE} event. Thin adapters to {@link BuildpackService};
 * each answers with a {@value #REPLY_TYPE} CloudEvent.
 */
public class BuildpackFunctions {

    public static final String REPLY_TYPE = "dev.rekon.buildpacks.result";
    public static final String PUBLISHED_TYPE = "dev.rekon.buildpacks.published";
    static final String SOURCE = "rekon/buildpacks";

    @Inject
    BuildpackService service;

    @Inject
    RekonConfig config;

    @Inject
    InstalledKinds kinds;

    @Funq
    @CloudEventMapping(trigger = "*", responseType = REPLY_TYPE, responseSource = SOURCE,
            attributes = @EventAttribute(name = "kind", value = "Buildpack"))
    public Reply buildpacksBuildpack(CloudEvent<JsonNode> event) {
        return buildpack(ApiServerEvent.parse(event));
    }

    @Funq
    @CloudEventMapping(trigger = "*", responseType = REPLY_TYPE, responseSource = SOURCE,
            attributes = @EventAttribute(name = "kind", value = "ClusterBuildpack"))
    public Reply buildpacksClusterBuildpack(CloudEvent<JsonNode> event) {
        return buildpack(ApiServerEvent.parse(event));
    }

    @Funq
    @CloudEventMapping(trigger = "*", responseType = REPLY_TYPE, responseSource = SOURCE,
            attributes = @EventAttribute(name = "kind", value = "Builder"))
    public Reply buildpacksBuilder(CloudEvent<JsonNode> event) {
        return builder(ApiServerEvent.parse(event));
    }

    @Funq
    @CloudEventMapping(trigger = "*", responseType = REPLY_TYPE, responseSource = SOURCE,
            attributes = @EventAttribute(name = "kind", value = "ClusterBuilder"))
    public Reply buildpacksClusterBuilder(CloudEvent<JsonNode> event) {
        return builder(ApiServerEvent.parse(event));
    }

    /** Manual event: {@code {"image": "<registry>/<repository>[:tag]"}} was pushed; re-read what names it. */
    @Funq
    @CloudEventMapping(trigger = PUBLISHED_TYPE, responseType = REPLY_TYPE, responseSource = SOURCE)
    public Reply buildpacksPublished(CloudEvent<JsonNode> event) {
        JsonNode d = ApiServerEvent.data(event);
        JsonNode image = d == null ? null : d.get("image");
        if (image == null || !image.isTextual() || image.asText().isBlank()) {
            throw new InvalidEventException(PUBLISHED_TYPE + " needs JSON data {\"image\": \"<registry>/<repository>:<tag>\"}");
        }
        Optional<String> notInstalled = kinds.notInstalled(PUBLISHED_TYPE, InstalledKinds.BUILDPACK_KINDS);
        if (notInstalled.isPresent()) {
            return Reply.rejected(InstalledKinds.REASON, notInstalled.get(), List.of());
        }
        try {
            return service.published(ImageReference.parse(image.asText()));
        } catch (IllegalArgumentException e) {
            throw new InvalidEventException(e.getMessage(), e);
        }
    }

    private Reply buildpack(ApiServerEvent e) {
        Reply refused = refuse(e);
        return refused != null ? refused
                : service.buildpackChanged(e.kind(), e.namespace(), e.name(), e.verb() == ApiServerEvent.Verb.DELETE ? e.object() : null);
    }

    private Reply builder(ApiServerEvent e) {
        Reply refused = refuse(e);
        if (refused != null) {
            return refused;
        }
        if (e.verb() == ApiServerEvent.Verb.DELETE) {
            return Reply.unchanged("BuilderDeleted", e.kind() + " " + e.name() + " was deleted; nothing to resolve", List.of());
        }
        return service.builderChanged(e.kind(), e.namespace(), e.name());
    }

    private Reply refuse(ApiServerEvent e) {
        Optional<String> notInstalled = kinds.notInstalled("a " + e.kind() + " event", InstalledKinds.BUILDPACK_KINDS);
        if (notInstalled.isPresent()) {
            return Reply.rejected(InstalledKinds.REASON, notInstalled.get(),
                    List.of(new ObjectRef(e.apiVersion(), e.kind(), e.namespace(), e.name())));
        }
        NamespacePolicy policy = config.namespacePolicy();
        if (policy.allows(e.namespace())) {
            return null;
        }
        return Reply.rejected(NamespacePolicy.REASON, policy.refusal(e.namespace()),
                List.of(new ObjectRef(e.apiVersion(), e.kind(), e.namespace(), e.name())));
    }
}
