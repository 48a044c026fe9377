package dev.rekon.rollouts;

/**
 * Told (as a CDI event, through {@link RolloutNotices}) after a rollout function has answered an event about a kpack
 * Image or an ImageDeploy of Rekon's group in this cluster, or after this process wrote the status of such an
 * ImageDeploy, for other areas that follow them without taking the event from rollouts (a promotion whose source or
 * stage it is). Observers must not throw: the rollout's reply, or its write, is already decided.
 *
 * @param resourceVersion the version of the object the event carried, or the status write gave it (null: Reference
 *        mode), so that an observer reading the object from its watch knows how new a view it needs
 * @param written true when this process wrote that version itself (a status write), false for an event: the event
 *        an ApiServerSource sends later for the same version tells nothing new
 */
public record RolloutObserved(String kind, String namespace, String name, String resourceVersion, boolean written) {

    public RolloutObserved(String kind, String namespace, String name, String resourceVersion) {
        this(kind, namespace, name, resourceVersion, false);
    }

    /** This process wrote the status of ImageDeploy {@code namespace/name}, which the write gave {@code version}. */
    public static RolloutObserved statusWritten(String namespace, String name, String version) {
        return new RolloutObserved("ImageDeploy", namespace, name, version, true);
    }
}
