package dev.rekon.rollouts;

import java.time.Instant;
import java.time.format.DateTimeParseException;
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
import io.quarkus.funqy.Funq;
import io.quarkus.funqy.knative.events.CloudEvent;
import io.quarkus.funqy.knative.events.CloudEventMapping;
import io.quarkus.funqy.knative.events.EventAttribute;

/**
 * The image-rollout functions: thin adapters from CloudEvents to {@link RolloutService}. Each checks the
 * namespace allow-list before any API call and answers with a {@value #REPLY_TYPE} CloudEvent.
 */
public class RolloutFunctions {

    public static final String REPLY_TYPE = "dev.rekon.rollout.result";
    public static final String MANUAL_TYPE = "dev.rekon.image.built";

    @Inject
    RolloutService service;

    @Inject
    RolloutGateway gateway;

    @Inject
    RekonConfig config;

    /** ApiServerSource events (Resource and Reference mode) for kpack Images. */
    @Funq
    @CloudEventMapping(trigger = "*", responseType = REPLY_TYPE, responseSource = "rekon/rollouts",
            attributes = @EventAttribute(name = "kind", value = "Image"))
    public Reply rolloutImage(CloudEvent<JsonNode> event) {
        ApiServerEvent e = ApiServerEvent.parse(event);
        Reply refused = refuse(e.namespace(), e);
        if (refused != null) {
            return refused;
        }
        Optional<String> notInstalled = gateway.imageNotInstalled();
        if (notInstalled.isPresent()) {
            return Reply.rejected(InstalledKinds.REASON, notInstalled.get(), List.of());
        }
        String group = gateway.imageContext().getGroup();
        if (e.apiVersion() != null && !e.apiVersion().startsWith(group + "/")) {
            return Reply.rejected("UnsupportedApiVersion", "Image of " + e.apiVersion() + " is not the configured kpack"
                    + " Image kind (" + group + "); set rekon.rollouts.image-crd.group to use it", List.of());
        }
        if (e.verb() == ApiServerEvent.Verb.DELETE) {
            return Reply.unchanged("ImageDeleted", "kpack Image " + e.namespace() + "/" + e.name()
                    + " was deleted; Deployments keep the image they run", List.of());
        }
        if (!e.reference()) {
            return service.imageBuilt(KpackImage.fromJson(e.object()));
        }
        return gateway.image(e.namespace(), e.name()).map(service::imageBuilt)
                .orElseGet(() -> Reply.unchanged("ImageNotFound", "kpack Image " + e.namespace() + "/" + e.name()
                        + " no longer exists", List.of()));
    }

    /** ApiServerSource events for ImageDeploys, of Rekon's group or kpush's. */
    @Funq
    @CloudEventMapping(trigger = "*", responseType = REPLY_TYPE, responseSource = "rekon/rollouts",
            attributes = @EventAttribute(name = "kind", value = "ImageDeploy"))
    public Reply rolloutImageDeploy(CloudEvent<JsonNode> event) {
        ApiServerEvent e = ApiServerEvent.parse(event);
        Reply refused = refuse(e.namespace(), e);
        if (refused != null) {
            return refused;
        }
        String group = e.apiVersion() == null ? "" : e.apiVersion().split("/")[0];
        Optional<String> notInstalled = gateway.imageDeployNotInstalled(group);
        if (notInstalled.isPresent()) {
            return Reply.rejected(InstalledKinds.REASON, notInstalled.get(), List.of());
        }
        if (!gateway.imageDeployGroups().contains(group)) {
            return Reply.rejected("UnsupportedApiVersion", "ImageDeploy of '" + e.apiVersion()
                    + "' is not handled; Rekon handles " + gateway.imageDeployGroups(), List.of());
        }
        if (e.verb() == ApiServerEvent.Verb.DELETE) {
            ImageDeployView gone = e.reference() ? null : ImageDeployView.fromJson(e.object());
            return service.imageDeployDeleted(group, e.namespace(), e.name(), gone == null ? null : gone.uid(),
                    gone == null ? null : gone.deploymentName());
        }
        // Both modes read the ImageDeploy: the event's copy may be stale, and the status write needs the
        // cluster's resourceVersion.
        return gateway.imageDeploy(group, e.namespace(), e.name()).map(service::imageDeployChanged)
                .orElseGet(() -> Reply.unchanged("ImageDeployNotFound", "ImageDeploy " + e.namespace() + "/"
                        + e.name() + " no longer exists", List.of()));
    }

    /**
     * The manual event for curl users: {@code {"namespace","image","latestImage","buildNumber"|"time"}}, where
     * {@code image} names the kpack Image and {@code latestImage} is the reference to roll out.
     */
    @Funq
    @CloudEventMapping(trigger = MANUAL_TYPE, responseType = REPLY_TYPE, responseSource = "rekon/rollouts")
    public Reply imageBuilt(CloudEvent<JsonNode> event) {
        JsonNode d = ApiServerEvent.data(event);
        if (d == null || !d.isObject()) {
            throw new InvalidEventException(MANUAL_TYPE + " needs JSON data: {\"namespace\":..., \"image\": <kpack Image"
                    + " name>, \"latestImage\": <image reference>, \"buildNumber\": <n> or \"time\": <RFC 3339>}");
        }
        String namespace = required(d, "namespace");
        String image = required(d, "image");
        ApiServerEvent.requireObjectName("image", image);
        String latest = required(d, "latestImage");
        Long build = d.hasNonNull("buildNumber") ? buildNumber(d.get("buildNumber")) : null;
        Instant time = d.hasNonNull("time") ? time(d.get("time").asText()) : null;
        if (build == null && time == null) {
            throw new InvalidEventException(MANUAL_TYPE + " needs \"buildNumber\" or \"time\" so that a late event "
                    + "cannot roll back a newer build");
        }
        Reply refused = refuse(namespace, null);
        return refused != null ? refused : service.imageBuilt(KpackImage.manual(namespace, image, latest, build, time));
    }

    private Reply refuse(String namespace, ApiServerEvent e) {
        ApiServerEvent.requireObjectName("namespace", namespace);
        if (e != null) {
            ApiServerEvent.requireObjectName("name", e.name());
        }
        NamespacePolicy policy = config.namespacePolicy();
        if (policy.allows(namespace)) {
            return null;
        }
        List<ObjectRef> objects = e == null ? List.of()
                : List.of(new ObjectRef(e.apiVersion(), e.kind(), e.namespace(), e.name()));
        return Reply.rejected(NamespacePolicy.REASON, policy.refusal(namespace), objects);
    }

    private static String required(JsonNode d, String field) {
        JsonNode v = d.get(field);
        if (v == null || !v.isTextual() || v.asText().isBlank()) {
            throw new InvalidEventException(MANUAL_TYPE + " needs a non-empty string \"" + field + "\"");
        }
        return v.asText();
    }

    private static Long buildNumber(JsonNode v) {
        if (v.canConvertToLong() && v.isIntegralNumber() && v.asLong() >= 0) {
            return v.asLong();
        }
        if (v.isTextual() && v.asText().matches("\\d{1,18}")) {
            return Long.parseLong(v.asText());
        }
        throw new InvalidEventException("\"buildNumber\" must be a non-negative whole number, not " + v);
    }

    private static Instant time(String text) {
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException e) {
            throw new InvalidEventException("\"time\" must be an RFC 3339 time such as 2026-11-22T10:15:30Z, not '"
                    + text + "'");
        }
    }
}
