package dev.rekon.rollouts;

import dev.rekon.rollouts.plan.RolloutPlanner;

/**
 * What one rollout attempt plans from: the planner's request (the ImageDeploy, its Deployment, the Images in
 * scope, now), and the key, which remembers what an earlier attempt of the same rollout already wrote.
 */
public record RolloutViews(RolloutPlanner.Request request, RolloutKey key) {
}
