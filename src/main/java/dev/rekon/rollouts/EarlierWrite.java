package dev.rekon.rollouts;

/**
 * What an earlier attempt of one reconcile wrote to the Deployment before its status write lost a race. The loop
 * plans the next attempt from fresh reads, which show that write (so it plans no Deployment write again); this
 * memory lets the plan still answer that the rollout was applied, and report it in the status. One per key: a
 * new input starts with none.
 */
public final class EarlierWrite {

    private volatile RolloutPlan applied;

    /** The plan whose Deployment write succeeded in an earlier attempt, or null. */
    RolloutPlan applied() {
        return applied;
    }

    void record(RolloutPlan plan) {
        applied = plan;
    }
}
