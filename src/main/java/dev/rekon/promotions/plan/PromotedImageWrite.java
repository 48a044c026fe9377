package dev.rekon.promotions.plan;

import dev.rekon.promotions.view.PromotedImageStatus;
import dev.rekon.promotions.view.SecretKeyRef;

/**
 * Writes a stage's PromotedImage: created when {@code resourceVersion} is null, else its status replaced guarded
 * by that version. {@code cluster} is the stage's kubeconfig Secret (null: this cluster); {@code promotion} is the
 * ImagePromotion ({@code namespace/name}) recorded in its spec.
 */
public record PromotedImageWrite(String stage, SecretKeyRef cluster, String namespace, String name,
        String resourceVersion, String promotion, PromotedImageStatus status) {
}
