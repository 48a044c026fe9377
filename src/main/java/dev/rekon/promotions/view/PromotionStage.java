package dev.rekon.promotions.view;

import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * One stage of an ImagePromotion as its spec declares it: where the stage is (a namespace, in this cluster when
 * {@code cluster} is null), the PromotedImage Rekon writes there (null for a first stage whose ImageDeploys follow
 * the kpack Image itself), the ImageDeploys whose rollout proves a build, the soak as written (checked by the
 * planner), the verify Job template (null: none), whether a person approves each build first, and the environment
 * the stage cluster's CDEvents name ({@code cluster.environment}, that cluster's {@code rekon.cdevents.environment};
 * null: not declared, any CDEvent may concern the stage).
 */
public record PromotionStage(String name, SecretKeyRef cluster, String namespace, String promotedImage,
        List<String> imageDeploys, String soak, JsonNode verifyJob, Approval approval, String environment) {

    /** Whether a build enters the stage on its own, or waits for {@code dev.rekon.promotion.approve}. */
    public enum Approval {
        AUTOMATIC, MANUAL;

        static Approval of(String text) {
            return "Manual".equalsIgnoreCase(text) ? MANUAL : AUTOMATIC;
        }
    }

    public PromotionStage {
        imageDeploys = imageDeploys == null ? List.of() : List.copyOf(imageDeploys);
        approval = approval == null ? Approval.AUTOMATIC : approval;
    }

    /** Whether the stage lives in another cluster, reached through its kubeconfig Secret. */
    public boolean remote() {
        return cluster != null;
    }

    /**
     * Whether a CDEvent from the environment {@code environmentId} (null: it names none) may report this stage's
     * rollouts: no when the stage is remote and declares another environment, or is in this cluster, whose own
     * environment ({@code here}, null: unknown) is another. Only what the spec says rules a stage out.
     */
    public boolean reportedFrom(String environmentId, String here) {
        if (environmentId == null) {
            return true;
        }
        String declared = remote() ? environment : here;
        return declared == null || declared.equals(environmentId);
    }

    /** The stage's namespace, the ImagePromotion's own when the spec names none. */
    public String namespaceOr(String promotionNamespace) {
        return namespace == null || namespace.isBlank() ? promotionNamespace : namespace;
    }

    static PromotionStage of(JsonNode s) {
        JsonNode ref = s.path("cluster").path("secretRef");
        SecretKeyRef cluster = ref.isObject() ? new SecretKeyRef(text(ref, "name"), text(ref, "key")) : null;
        List<String> deploys = new java.util.ArrayList<>();
        s.path("imageDeploys").forEach(n -> deploys.add(n.asText()));
        JsonNode job = s.path("verify").path("jobTemplate");
        return new PromotionStage(text(s, "name"), cluster, text(s, "namespace"), text(s, "promotedImage"), deploys,
                text(s, "soak"), job.isObject() ? job : null, Approval.of(text(s, "approval")),
                cluster == null ? null : text(s.path("cluster"), "environment"));
    }

    static String text(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v == null || !v.isValueNode() || v.asText().isBlank() ? null : v.asText();
    }
}
