package dev.rekon.modules.plan;

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
     * @param appliedImages the images this patch applies, recorded in the same patch; null leaves the record
     * @param manualChange the manual change to record as reported; {@link #REMOVE} removes it
     */
    record DeploymentPatch(ObjectRef ref, String resourceVersion, Map<String, String> images, String version,
            String channel, Integer replicas, String replicasBeforeDisable, Map<String, String> appliedImages,
            String manualChange) {

        public static final String REMOVE = "";

        public DeploymentPatch {
            images = images == null ? Map.of() : Map.copyOf(images);
            appliedImages = appliedImages == null ? null : Map.copyOf(appliedImages);
        }

        public DeploymentPatch(ObjectRef ref, String resourceVersion, Map<String, String> images, String version,
                String channel, Integer replicas, String replicasBeforeDisable) {
            this(ref, resourceVersion, images, version, channel, replicas, replicasBeforeDisable, null, null);
        }
    }
}
