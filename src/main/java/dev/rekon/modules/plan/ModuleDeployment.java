package dev.rekon.modules.plan;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import dev.rekon.core.ObjectRef;

/**
 * What the planners need to know about one installed Deployment of a module, read from the cluster: its
 * identity and resourceVersion (for optimistic concurrency), the version and channel its labels declare,
 * its containers' images and its replica count, the replicas remembered when Rekon disabled it, the images
 * Rekon last applied to it, whether it is suspended, and the manual change Rekon last reported on it.
 */
public record ModuleDeployment(ObjectRef ref, String resourceVersion, String module, String version, String channel,
        Map<String, String> containerImages, int replicas, Integer replicasBeforeDisable,
        Map<String, String> appliedImages, boolean suspended, String reportedChange) {

    /** Marks a Deployment as part of a module; the value is the module name. */
    public static final String MODULE_LABEL = "rekon.dev/module";
    /** The installed version, the standard Kubernetes recommended label. */
    public static final String VERSION_LABEL = "app.kubernetes.io/version";
    /** The release channel the Deployment follows; absent means {@link #DEFAULT_CHANNEL}. */
    public static final String CHANNEL_LABEL = "rekon.dev/channel";
    public static final String DEFAULT_CHANNEL = "regular";
    /** Set by a disable: the replica count an enable restores. */
    public static final String REPLICAS_ANNOTATION = "rekon.dev/replicas-before-disable";
    /** Container name to image, as JSON: what Rekon's last release patch set, written in that same patch. */
    public static final String APPLIED_IMAGES_ANNOTATION = "rekon.dev/applied-images";
    /** "true": no event and no resync changes this Deployment. */
    public static final String SUSPEND_ANNOTATION = "rekon.dev/suspend";
    /** The manual change Rekon last reported (with a Warning Event), so a resync reports it once. */
    public static final String MANUAL_CHANGE_ANNOTATION = "rekon.dev/manual-change";

    /** One container running another image than the one Rekon last applied. */
    public record ManualChange(String container, String running, String applied) {
        @Override
        public String toString() {
            return "container " + container + " runs " + running + " but Rekon applied " + applied;
        }
    }

    public ModuleDeployment {
        containerImages = Map.copyOf(containerImages);
        appliedImages = appliedImages == null ? Map.of() : Map.copyOf(appliedImages);
        channel = channel == null || channel.isBlank() ? DEFAULT_CHANNEL : channel;
    }

    public ModuleDeployment(ObjectRef ref, String resourceVersion, String module, String version, String channel,
            Map<String, String> containerImages, int replicas, Integer replicasBeforeDisable) {
        this(ref, resourceVersion, module, version, channel, containerImages, replicas, replicasBeforeDisable, Map.of(),
                false, null);
    }

    public boolean enabled() {
        return replicasBeforeDisable == null;
    }

    /** The containers whose image differs from what Rekon last applied; empty when Rekon never applied one. */
    public List<ManualChange> manualChanges() {
        List<ManualChange> changes = new ArrayList<>();
        new TreeMap<>(appliedImages).forEach((container, applied) -> {
            String running = containerImages.get(container);
            if (running != null && !running.equals(applied)) {
                changes.add(new ManualChange(container, running, applied));
            }
        });
        return changes;
    }

    /** The value of {@link #MANUAL_CHANGE_ANNOTATION} that records the current manual changes. */
    public static String changeKey(List<ManualChange> changes) {
        return String.join(",", changes.stream().map(c -> c.container() + "=" + c.running()).toList());
    }
}
