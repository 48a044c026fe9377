package dev.rekon.modules;

import java.util.Map;

import dev.rekon.core.ObjectRef;

/**
 * What the planners need to know about one installed Deployment of a module, read from the cluster: its
 * identity and resourceVersion (for optimistic concurrency), the version and channel its labels declare,
 * its containers' images and its replica count, and the replicas remembered when Rekon disabled it.
 */
public record ModuleDeployment(ObjectRef ref, String resourceVersion, String module, String version, String channel,
        Map<String, String> containerImages, int replicas, Integer replicasBeforeDisable) {

    /** Marks a Deployment as part of a module; the value is the module name. */
    public static final String MODULE_LABEL = "rekon.dev/module";
    /** The installed version, the standard Kubernetes recommended label. */
    public static final String VERSION_LABEL = "app.kubernetes.io/version";
    /** The release channel the Deployment follows; absent means {@link #DEFAULT_CHANNEL}. */
    public static final String CHANNEL_LABEL = "rekon.dev/channel";
    public static final String DEFAULT_CHANNEL = "regular";
    /** Set by a disable: the replica count an enable restores. */
    public static final String REPLICAS_ANNOTATION = "rekon.dev/replicas-before-disable";

    public ModuleDeployment {
        containerImages = Map.copyOf(containerImages);
        channel = channel == null || channel.isBlank() ? DEFAULT_CHANNEL : channel;
    }

    public boolean enabled() {
        return replicasBeforeDisable == null;
    }
}
