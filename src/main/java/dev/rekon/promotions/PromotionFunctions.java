package dev.rekon.promotions;

import jakarta.inject.Inject;

import com.fasterxml.jackson.databind.JsonNode;

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
 * ({@value #RECONCILE_TYPE}). Each parses, checks the namespace before any API call, and hands the input to
 * {@link PromotionService}; each answers with a {@value PromotionNames#RESULT_EVENT} CloudEvent.
 */
public class PromotionFunctions {

    public static final String RECONCILE_TYPE = "dev.rekon.promotion.reconcile";
    static final String SOURCE = "rekon/promotions";

    @Inject
    PromotionService service;

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

    private static String text(JsonNode data, String field) {
        String v = data == null ? "" : data.path(field).asText("");
        return v.isBlank() ? null : v;
    }
}
