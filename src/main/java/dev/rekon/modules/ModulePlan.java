package dev.rekon.modules;

import java.util.List;
import java.util.Map;

import dev.rekon.core.ObjectRef;

/** What to do with a module release or an enable/disable: patch Deployments, nothing, or refuse. */
public sealed interface ModulePlan {

    String reason();

    String message();

    /** Patch each Deployment, each guarded by the resourceVersion it was planned against. */
    record Apply(List<DeploymentPatch> patches, String reason, String message) implements ModulePlan {
        public Apply {
            patches = List.copyOf(patches);
        }
    }

    /** The cluster already matches, or the event concerns nothing installed: zero writes. */
    record NoChange(String reason, String message) implements ModulePlan {
    }

    /** A policy refuses the event: zero writes, and the message says what to do instead. */
    record Rejected(String reason, String message) implements ModulePlan {
    }

    /**
     * The fields one patch sets on one Deployment; null fields stay as they are.
     *
     * @param images container name to image, only for containers whose image changes
     * @param replicasBeforeDisable the annotation value to set; {@link #REMOVE} removes it
     */
    record DeploymentPatch(ObjectRef ref, String resourceVersion, Map<String, String> images, String version,
            String channel, Integer replicas, String replicasBeforeDisable) {

        public static final String REMOVE = "";

        public DeploymentPatch {
            images = images == null ? Map.of() : Map.copyOf(images);
        }
    }
}
