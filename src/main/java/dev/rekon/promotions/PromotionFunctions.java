package dev.rekon.promotions;

import jakarta.inject.Inject;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.packageurl.MalformedPackageURLException;
import com.github.packageurl.PackageURL;

import dev.rekon.core.InvalidEventException;
import dev.rekon.core.Reply;
import dev.rekon.events.ApiServerEvent;
import dev.rekon.pipeline.NamespaceGuard;
import dev.rekon.promotions.plan.Approval;
import dev.rekon.promotions.view.PromotionNames;
import io.quarkus.funqy.Funq;
import io.quarkus.funqy.knative.events.CloudEvent;
import io.quarkus.funqy.knative.events.CloudEventMapping;
import io.quarkus.funqy.knative.events.EventAttribute;

/**
 * The promotion functions: ImagePromotion events from an ApiServerSource, a person's approval
 * ({@value PromotionNames#APPROVE_EVENT}) and a reconcile asked for by hand or by a stage's report
 * ({@value #RECONCILE_TYPE}), and a stage's CDEvents about a rollout (a trigger only). Each parses, checks the namespace before any API call, and hands the input to
 * {@link PromotionService}; each answers with a {@value PromotionNames#RESULT_EVENT} CloudEvent.
 */
public class PromotionFunctions {

    public static final String RECONCILE_TYPE = "dev.rekon.promotion.reconcile";
    public static final String CDEVENT_DEPLOYED = "dev.cdevents.service.deployed.0.3.0";
    public static final String CDEVENT_UPGRADED = "dev.cdevents.service.upgraded.0.3.0";
    public static final String CDEVENT_ROLLEDBACK = "dev.cdevents.service.rolledback.0.3.0";
    static final String SOURCE = "rekon/promotions";

    @Inject
    PromotionService service;

    @Inject
    PromotionTriggers triggers;

    @Inject
    NamespaceGuard guard;

    @Funq
    @CloudEventMapping(trigger = "*", responseType = PromotionNames.RESULT_EVENT, responseSource = SOURCE,
            attributes = @EventAttribute(name = "kind", value = PromotionNames.PROMOTION_KIND))
    public Reply promotionChanged(CloudEvent<JsonNode> event) {
        ApiServerEvent e = ApiServerEvent.parseNamespaced(event);
        if (e.verb() == ApiServerEvent.Verb.DELETE) {
            return Reply.unchanged("PromotionDeleted", "ImagePromotion " + e.namespace() + "/" + e.name()
                    + " was deleted; its stages keep the builds they have", java.util.List.of(e.ref()));
        }
        return guard.guarded(e.namespace(), e.ref(), () -> service.changed(e.namespace(), e.name()));
    }

    @Funq
    @CloudEventMapping(trigger = PromotionNames.APPROVE_EVENT, responseType = PromotionNames.RESULT_EVENT,
            responseSource = SOURCE)
    public Reply promotionApprove(CloudEvent<JsonNode> event) {
        JsonNode data = ApiServerEvent.data(event);
        String namespace = text(data, "namespace");
        String name = text(data, "name");
        String stage = text(data, "stage");
        String image = text(data, "image");
        if (namespace == null || name == null || stage == null || image == null) {
            throw new InvalidEventException(PromotionNames.APPROVE_EVENT + " needs JSON data {\"namespace\": ..., \"name\":"
                    + " <ImagePromotion>, \"stage\": <stage>, \"image\": <repository@sha256:... or sha256:...>}");
        }
        return guard.guarded(namespace, PromotionNames.promotion(namespace, name),
                () -> service.approve(namespace, name, new Approval(stage, image)));
    }

    /** The reconcile of one ImagePromotion, which {@link #promotionReconcile} takes. */
    public static dev.rekon.web.OutgoingEvent reconcileEvent(String namespace, String name) {
        return dev.rekon.web.OutgoingEvent.of(RECONCILE_TYPE, java.util.Map.of(), java.util.Map.of("namespace",
                namespace, "name", name));
    }

    @Funq
    @CloudEventMapping(trigger = RECONCILE_TYPE, responseType = PromotionNames.RESULT_EVENT, responseSource = SOURCE)
    public Reply promotionReconcile(CloudEvent<JsonNode> event) {
        JsonNode data = ApiServerEvent.data(event);
        String namespace = text(data, "namespace");
        String name = text(data, "name");
        if (namespace == null || name == null) {
            throw new InvalidEventException(RECONCILE_TYPE + " needs JSON data {\"namespace\": \"<namespace>\","
                    + " \"name\": \"<ImagePromotion name>\"}");
        }
        return guard.guarded(namespace, PromotionNames.promotion(namespace, name),
                () -> service.changed(namespace, name));
    }

    /**
     * A stage's report of a rollout, as CDEvents (any producer's, a stage's Rekon's once it sends them): a trigger
     * only. The promotions with a stage listing the ImageDeploy the subject names ({@code <namespace>/<name>}) are
     * planned, each reading its stages itself; a stage whose spec names another environment than the event's
     * {@code subject.content.environment.id} is not taken as reported.
     */
    @Funq
    @CloudEventMapping(trigger = CDEVENT_DEPLOYED, responseType = PromotionNames.RESULT_EVENT, responseSource = SOURCE)
    public Reply promotionStageDeployed(CloudEvent<JsonNode> event) {
        return stageReported(event);
    }

    @Funq
    @CloudEventMapping(trigger = CDEVENT_UPGRADED, responseType = PromotionNames.RESULT_EVENT, responseSource = SOURCE)
    public Reply promotionStageUpgraded(CloudEvent<JsonNode> event) {
        return stageReported(event);
    }

    @Funq
    @CloudEventMapping(trigger = CDEVENT_ROLLEDBACK, responseType = PromotionNames.RESULT_EVENT,
            responseSource = SOURCE)
    public Reply promotionStageRolledBack(CloudEvent<JsonNode> event) {
        return stageReported(event);
    }

    private Reply stageReported(CloudEvent<JsonNode> event) {
        JsonNode data = ApiServerEvent.data(event);
        String subject = data == null ? "" : data.path("subject").path("id").asText("");
        String[] parts = subject.split("/");
        if (parts.length != 2 || parts[0].isBlank() || parts[1].isBlank()) {
            throw new InvalidEventException(event.type() + " needs data.subject.id \"<namespace>/<ImageDeploy name>\","
                    + " not '" + subject + "'");
        }
        String environment = data.path("subject").path("content").path("environment").path("id").asText("");
        return triggers.reported(parts[0], parts[1], environment.isBlank() ? null : environment,
                digest(data.path("subject").path("content").path("artifactId").asText("")));
    }

    /** The digest of an OCI purl ({@code pkg:oci/<name>@<digest>?…}); null for any other artifact id. */
    static String digest(String artifactId) {
        try {
            PackageURL purl = new PackageURL(artifactId);
            return "oci".equals(purl.getType()) && purl.getVersion() != null && purl.getVersion().contains(":")
                    ? purl.getVersion() : null;
        } catch (MalformedPackageURLException e) {
            return null;
        }
    }

    private static String text(JsonNode data, String field) {
        String v = data == null ? "" : data.path(field).asText("");
        return v.isBlank() ? null : v;
    }
}
