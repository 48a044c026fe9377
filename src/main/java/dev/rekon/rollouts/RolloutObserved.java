package dev.rekon.rollouts;

/**
 * Told (as a CDI event) after a rollout function has answered an event about a kpack Image or an ImageDeploy of
 * Rekon's group in this cluster, for other areas that follow them without taking the event from rollouts (a
 * promotion whose source or stage it is). Observers must not throw: the rollout's reply is already decided.
 */
public record RolloutObserved(String kind, String namespace, String name) {
}
