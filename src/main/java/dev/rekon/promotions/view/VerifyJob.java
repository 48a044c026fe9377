package dev.rekon.promotions.view;

/** The verify Job of one build in one stage, as read: whether it finished, and how. */
public record VerifyJob(String namespace, String name, State state, String message) {

    public enum State {
        RUNNING, SUCCEEDED, FAILED
    }
}
