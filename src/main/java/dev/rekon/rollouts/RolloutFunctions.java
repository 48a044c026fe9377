package dev.rekon.rollouts;

import java.util.List;
import java.util.Optional;

import jakarta.inject.Inject;

import com.fasterxml.jackson.databind.JsonNode;

import dev.rekon.cluster.InstalledKinds;
import dev.rekon.core.Reply;
import dev.rekon.events.ApiServerEvent;
import dev.rekon.pipeline.NamespaceGuard;
import dev.rekon.rollouts.RolloutInput.ImageDeleted;
import dev.rekon.rollouts.RolloutInput.ImageDeployChanged;
import dev.rekon.rollouts.RolloutInput.ImageDeployDeleted;
import dev.rekon.rollouts.RolloutInput.ImageReported;
import dev.rekon.rollouts.apply.RolloutGateway;
import dev.rekon.rollouts.view.ImageDeployView;
import dev.rekon.rollouts.view.KpackImage;
import dev.rekon.rollouts.view.RolloutNames;
import dev.rekon.web.OutgoingEvent;
import io.quarkus.funqy.Funq;
import io.quarkus.funqy.knative.events.CloudEvent;
import io.quarkus.funqy.knative.events.CloudEventMapping;
import io.quarkus.funqy.knative.events.EventAttribute;

/**
 * The image-rollout functions: Funqy adapters that parse the CloudEvent into a {@link RolloutInput}, check the
 * namespace allow-list before any API call, and hand it to {@link RolloutService}. Each answers with a
 * {@value #REPLY_TYPE} CloudEvent.
 */
public class RolloutFunctions {

    public static final String REPLY_TYPE = "dev.rekon.rollouts.result";
    public static final String MANUAL_TYPE = ManualBuild.TYPE;
    static final String SOURCE = "rekon/rollouts";

    @Inject
    RolloutService service;

    @Inject
    RolloutGateway gateway;

    @Inject
    NamespaceGuard guard;

    @Inject
    RolloutNotices notices;

    /** ApiServerSource events (Resource and Reference mode) for kpack Images. */
    @Funq
    @CloudEventMapping(trigger = "*", responseType = REPLY_TYPE, responseSource = SOURCE,
            attributes = @EventAttribute(name = "kind", value = "Image"))
    public Reply rolloutImage(CloudEvent<JsonNode> event) {
        ApiServerEvent e = ApiServerEvent.parseNamespaced(event);
        Optional<String> notInstalled = gateway.imageNotInstalled();
        if (notInstalled.isPresent()) {
            return Reply.rejected(InstalledKinds.REASON, notInstalled.get(), List.of(e.ref()));
        }
        String group = gateway.imageGroup();
        if (e.apiVersion() != null && !e.apiVersion().startsWith(group + "/")) {
            return Reply.rejected("UnsupportedApiVersion", "Image of " + e.apiVersion() + " is not the configured kpack"
                    + " Image kind (" + group + "); set rekon.rollouts.image-crd.group to use it", List.of());
        }
        RolloutInput input = e.verb() == ApiServerEvent.Verb.DELETE ? new ImageDeleted(e.namespace(), e.name())
                : new ImageReported(e.namespace(), e.name(), e.reference() ? null : KpackImage.fromJson(e.object()));
        Reply reply = guard.guarded(e.namespace(), e.ref(), () -> service.handle(input));
        tell(e, "Image");
        return reply;
    }

    /**
     * ApiServerSource events for PromotedImages (Resource and Reference mode): a promotion wrote a build into this
     * stage; the ImageDeploys following it ({@code spec.refKind: PromotedImage}) roll it out as a kpack Image's.
     */
    @Funq
    @CloudEventMapping(trigger = "*", responseType = REPLY_TYPE, responseSource = SOURCE,
            attributes = @EventAttribute(name = "kind", value = "PromotedImage"))
    public Reply rolloutPromotedImage(CloudEvent<JsonNode> event) {
        ApiServerEvent e = ApiServerEvent.parseNamespaced(event);
        if (e.verb() == ApiServerEvent.Verb.DELETE) {
            return Reply.unchanged("ImageDeleted", "PromotedImage " + e.namespace() + "/" + e.name()
                    + " was deleted; Deployments keep the image they run", List.of());
        }
        RolloutInput input = new RolloutInput.PromotedImageReported(e.namespace(), e.name(),
                e.reference() ? null : KpackImage.fromJson(e.object()));
        return guard.guarded(e.namespace(), e.ref(), () -> service.handle(input));
    }

    /** ApiServerSource events for ImageDeploys, of Rekon's group or kpush's. */
    @Funq
    @CloudEventMapping(trigger = "*", responseType = REPLY_TYPE, responseSource = SOURCE,
            attributes = @EventAttribute(name = "kind", value = "ImageDeploy"))
    public Reply rolloutImageDeploy(CloudEvent<JsonNode> event) {
        ApiServerEvent e = ApiServerEvent.parseNamespaced(event);
        String group = e.apiVersion() == null ? "" : e.apiVersion().split("/")[0];
        Optional<String> notInstalled = gateway.imageDeployNotInstalled(group);
        if (notInstalled.isPresent()) {
            return Reply.rejected(InstalledKinds.REASON, notInstalled.get(), List.of(e.ref()));
        }
        if (!gateway.imageDeployGroups().contains(group)) {
            return Reply.rejected("UnsupportedApiVersion", "ImageDeploy of '" + e.apiVersion()
                    + "' is not handled; Rekon handles " + gateway.imageDeployGroups(), List.of());
        }
        Reply reply = guard.guarded(e.namespace(), e.ref(), () -> service.handle(imageDeployInput(e, group)));
        if (RolloutNames.GROUP.equals(group)) {
            tell(e, "ImageDeploy");
        }
        return reply;
    }

    private void tell(ApiServerEvent e, String kind) {
        if (e.verb() != ApiServerEvent.Verb.DELETE && guard.allows(e.namespace())) {
            String version = e.reference() || e.object() == null ? null
                    : e.object().path("metadata").path("resourceVersion").asText(null);
            notices.tell(new RolloutObserved(kind, e.namespace(), e.name(), version));
        }
    }

    /** The manual event for curl users; see {@link ManualBuild}. */
    @Funq
    @CloudEventMapping(trigger = MANUAL_TYPE, responseType = REPLY_TYPE, responseSource = SOURCE)
    public Reply imageBuilt(CloudEvent<JsonNode> event) {
        KpackImage image = ManualBuild.parse(ApiServerEvent.data(event));
        return guard.guarded(image.namespace(), null, () -> service.handle(ImageReported.of(image)));
    }

    /**
     * The per-key input of one ImageDeploy, for a fanned-out resync pass: the event an ApiServerSource sends in
     * Reference mode for an ImageDeploy that changed, which {@link #rolloutImageDeploy} takes (it reads the
     * ImageDeploy and every Image it follows, and plans as a pass does).
     */
    public static OutgoingEvent reconcileEvent(String group, String namespace, String name) {
        String apiVersion = group + "/v1alpha1";
        return OutgoingEvent.of(ApiServerEvent.TYPE_PREFIX + "ref.update", java.util.Map.of("kind", "ImageDeploy",
                "apiversion", apiVersion, "namespace", namespace, "name", name), java.util.Map.of("apiVersion",
                        apiVersion, "kind", "ImageDeploy", "namespace", namespace, "name", name));
    }

    private static RolloutInput imageDeployInput(ApiServerEvent e, String group) {
        if (e.verb() != ApiServerEvent.Verb.DELETE) {
            // The plan takes the newer of the event's copy and the watch's (RolloutService); Reference mode, or a
            // copy that is not of the object the event names, reads it.
            ImageDeployView copy = e.reference() ? null : ImageDeployView.fromJson(e.object());
            boolean same = copy != null && e.name().equals(copy.name()) && e.namespace().equals(copy.namespace())
                    && copy.resourceVersion() != null;
            return new ImageDeployChanged(group, e.namespace(), e.name(), same ? copy : null);
        }
        ImageDeployView gone = e.reference() ? null : ImageDeployView.fromJson(e.object());
        return new ImageDeployDeleted(group, e.namespace(), e.name(), gone == null ? null : gone.uid(),
                gone == null ? null : gone.deploymentName());
    }
}
