package dev.rekon.rollouts;

import java.time.Clock;

import jakarta.inject.Inject;

import dev.rekon.core.ObjectRef;
import dev.rekon.core.Reply;
import dev.rekon.pipeline.Reconciler;
import dev.rekon.rollouts.apply.RolloutGateway;

/**
 * What the rollout reconcilers of one ImageDeploy share, whatever the input ({@link RolloutReconciler} for builds,
 * changes and resyncs, {@link PushReconciler} for pushes): the object a reply names, the answer when it is gone,
 * and the writes of a {@link RolloutStep} ({@link RolloutApplier}). Each decides only what it reads and plans.
 */
abstract class ImageDeployReconciler<K extends ImageDeployKey, V> implements Reconciler<K, V, RolloutStep> {

    @Inject
    RolloutGateway gateway;

    @Inject
    RolloutApplier applier;

    @Inject
    Clock clock;

    @Override
    public ObjectRef subject(K key) {
        return key.ref();
    }

    @Override
    public Reply gone(K key) {
        return RolloutStep.imageDeployGone(key.namespace(), key.name());
    }

    @Override
    public void apply(RolloutStep step) {
        applier.apply(step);
    }
}
