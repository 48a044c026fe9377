package dev.rekon.promotions.apply;

import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.promotions.plan.PromotedImageWrite;
import dev.rekon.promotions.plan.VerifyJobWrite;
import dev.rekon.promotions.view.PromotionNames;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;

/** The bodies of promotion writes: a new PromotedImage with Rekon's labels, its status, a verify Job. */
final class PromotionBodies {

    /** The environment variable that tells a verify Job which build it checks. */
    static final String IMAGE_ENV = "PROMOTED_IMAGE";

    private PromotionBodies() {
    }

    static GenericKubernetesResource promotedImage(PromotedImageWrite w) {
        GenericKubernetesResource r = new GenericKubernetesResource();
        r.setApiVersion(PromotionNames.API_VERSION);
        r.setKind(PromotionNames.PROMOTED_KIND);
        r.setMetadata(new ObjectMetaBuilder().withName(w.name()).withNamespace(w.namespace()).build());
        r.setAdditionalProperty("spec", Map.of("promotion", w.promotion(), "stage", w.stage()));
        return r;
    }

    static GenericKubernetesResource newPromotedImage(PromotedImageWrite w) {
        GenericKubernetesResource r = promotedImage(w);
        r.getMetadata().setLabels(Map.of(PromotionNames.MANAGED_BY, "rekon", "app.kubernetes.io/part-of", "rekon",
                PromotionNames.PROMOTION_LABEL, w.promotion().replace('/', '.')));
        return r;
    }

    /** The stage's job template as a Job of that name, each container told the build in {@value #IMAGE_ENV}. */
    static HasMetadata verifyJob(VerifyJobWrite w, ObjectMapper mapper) {
        ObjectNode template = w.jobTemplate().deepCopy();
        ObjectNode job = mapper.createObjectNode();
        job.put("apiVersion", "batch/v1");
        job.put("kind", "Job");
        ObjectNode meta = template.path("metadata").isObject() ? (ObjectNode) template.get("metadata")
                : mapper.createObjectNode();
        meta.put("name", w.name());
        meta.put("namespace", w.namespace());
        ObjectNode labels = meta.path("labels").isObject() ? (ObjectNode) meta.get("labels") : meta.putObject("labels");
        labels.put(PromotionNames.MANAGED_BY, "rekon");
        labels.put("rekon.dev/stage", w.stage());
        job.set("metadata", meta);
        job.set("spec", template.path("spec").isObject() ? template.get("spec") : mapper.createObjectNode());
        for (JsonNode c : job.path("spec").path("template").path("spec").path("containers")) {
            ArrayNode env = c.path("env").isArray() ? (ArrayNode) c.get("env") : ((ObjectNode) c).putArray("env");
            env.addObject().put("name", IMAGE_ENV).put("value", w.image());
        }
        return mapper.convertValue(job, Job.class);
    }
}
