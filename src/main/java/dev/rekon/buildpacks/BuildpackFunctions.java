package dev.rekon.buildpacks;

import java.util.List;
import java.util.function.Supplier;

import jakarta.inject.Inject;

import com.fasterxml.jackson.databind.JsonNode;

import dev.rekon.buildpacks.BuildpackInput.BuilderChanged;
import dev.rekon.buildpacks.BuildpackInput.BuilderDeleted;
import dev.rekon.buildpacks.BuildpackInput.BuildpackChanged;
import dev.rekon.buildpacks.BuildpackInput.Published;
import dev.rekon.cluster.InstalledKinds;
import dev.rekon.core.InvalidEventException;
import dev.rekon.core.ObjectRef;
import dev.rekon.core.Reply;
import dev.rekon.events.ApiServerEvent;
import dev.rekon.pipeline.NamespaceGuard;
import dev.rekon.registry.ImageReference;
import io.quarkus.funqy.Funq;
import io.quarkus.funqy.knative.events.CloudEvent;
import io.quarkus.funqy.knative.events.CloudEventMapping;
import io.quarkus.funqy.knative.events.EventAttribute;

/**
 * The buildpack-publication functions: Funqy adapters that parse ApiServerSource events for Buildpack,
 * ClusterBuildpack, Builder and ClusterBuilder, and the manual {@value #PUBLISHED_TYPE} event, into a
 * {@link BuildpackInput}, check the namespace allow-list, and hand it to {@link BuildpackService}. Each answers
 * with a {@value #REPLY_TYPE} CloudEvent.
 */
public class BuildpackFunctions {

    public static final String REPLY_TYPE = "dev.rekon.buildpacks.result";
    public static final String PUBLISHED_TYPE = "dev.rekon.buildpacks.published";
    static final String SOURCE = "rekon/buildpacks";

    @Inject
    BuildpackService service;

    @Inject
    NamespaceGuard guard;

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
        Published published = new Published(pushedImage(ApiServerEvent.data(event)));
        return installed(PUBLISHED_TYPE, null, () -> service.handle(published));
    }

    private Reply buildpack(ApiServerEvent e) {
        JsonNode before = e.verb() == ApiServerEvent.Verb.DELETE ? e.object() : null;
        return installed("a " + e.kind() + " event", e.ref(), () -> guard.guarded(e.namespace(), e.ref(),
                () -> service.handle(new BuildpackChanged(e.kind(), e.namespace(), e.name(), before))));
    }

    private Reply builder(ApiServerEvent e) {
        BuildpackInput input = e.verb() == ApiServerEvent.Verb.DELETE
                ? new BuilderDeleted(e.kind(), e.namespace(), e.name())
                : new BuilderChanged(e.kind(), e.namespace(), e.name());
        return installed("a " + e.kind() + " event", e.ref(),
                () -> guard.guarded(e.namespace(), e.ref(), () -> service.handle(input)));
    }

    /** Without kpack's RFC 0009 kinds there is nothing to publish to: a clear refusal naming the CRDs to install. */
    private Reply installed(String what, ObjectRef subject, Supplier<Reply> work) {
        return kinds.notInstalled(what, InstalledKinds.BUILDPACK_KINDS)
                .map(why -> Reply.rejected(InstalledKinds.REASON, why, subject == null ? List.of() : List.of(subject)))
                .orElseGet(work);
    }

    private static ImageReference pushedImage(JsonNode d) {
        JsonNode image = d == null ? null : d.get("image");
        if (image == null || !image.isTextual() || image.asText().isBlank()) {
            throw new InvalidEventException(PUBLISHED_TYPE + " needs JSON data {\"image\": \"<registry>/<repository>:<tag>\"}");
        }
        try {
            return ImageReference.parse(image.asText());
        } catch (IllegalArgumentException e) {
            throw new InvalidEventException(e.getMessage(), e);
        }
    }
}
