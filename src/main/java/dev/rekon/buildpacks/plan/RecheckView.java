package dev.rekon.buildpacks.plan;

import com.fasterxml.jackson.databind.JsonNode;

import dev.rekon.buildpacks.view.BuildpackView;
import dev.rekon.cluster.Conditions;
import dev.rekon.core.ObjectRef;

/**
 * What a resync keeps of a Buildpack or ClusterBuildpack to re-check its image without reading the object: the
 * image and whose pull secrets read it, whether the status is of the current generation, the reason of its
 * {@code Ready} condition, and the manifest digest the status was read from.
 */
public record RecheckView(ObjectRef ref, String image, String serviceAccountNamespace, String serviceAccountName,
        boolean current, String readyReason, String digest) {

    public static RecheckView of(BuildpackView v) {
        JsonNode status = v.status();
        JsonNode ready = status == null ? null : Conditions.find(status.get("conditions"), BuildpackStatusPlanner.READY);
        boolean current = status != null && status.path("observedGeneration").asLong(-1) == v.generation();
        return new RecheckView(v.ref(), v.image(), v.serviceAccountNamespace(), v.serviceAccountName(), current,
                ready == null ? null : ready.path("reason").asText(null), BuildpackStatusPlanner.digestRead(status));
    }
}
