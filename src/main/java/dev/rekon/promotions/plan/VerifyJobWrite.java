package dev.rekon.promotions.plan;

import com.fasterxml.jackson.databind.JsonNode;

import dev.rekon.promotions.view.SecretKeyRef;

/**
 * Creates the verify Job of one build in a stage from the stage's {@code jobTemplate}, the build's reference given
 * to it as the environment variable {@code PROMOTED_IMAGE}; a Job of that name already there is left as it is.
 */
public record VerifyJobWrite(String promotionNamespace, String stage, SecretKeyRef cluster, String namespace,
        String name, JsonNode jobTemplate, String image) {
}
