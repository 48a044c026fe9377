package dev.rekon.rollouts;

import dev.rekon.rollouts.plan.RolloutPlan;

/**
 * The rollout whose Deployment write stood, for one key: its status pass ({@link StatusPasses}), and any attempt
 * after that pass lost a race, plan from views that show the write (so they plan no Deployment write again); this
 * memory lets the plan still answer that the rollout was applied, and report it in the status. One per key: a new
 * input starts with none.
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
