package dev.rekon.rollouts;

/**
 * Told (as a CDI event) after a rollout function has answered an event about a kpack Image or an ImageDeploy of
 * Rekon's group in this cluster, for other areas that follow them without taking the event from rollouts (a
 * promotion whose source or stage it is). Observers must not throw: the rollout's reply is already decided.
 *
 * @param resourceVersion the version of the object the event carried (null: Reference mode), so that an observer
 *        reading the object from its watch knows how new a view it needs
 */
public record RolloutObserved(String kind, String namespace, String name, String resourceVersion) {

    public RolloutObserved(String kind, String namespace, String name) {
        this(kind, namespace, name, null);
    }
}
