package dev.rekon.rollouts;

/**
 * What one rollout attempt plans from: the planner's request (the ImageDeploy, its Deployment, the Images in
 * scope, now), and what an earlier attempt of the same reconcile already wrote.
 */
public record RolloutViews(RolloutPlanner.Request request, EarlierWrite earlier) {
}
