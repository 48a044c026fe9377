package dev.rekon.promotions.watch;

import dev.rekon.promotions.view.SecretKeyRef;
import dev.rekon.promotions.view.StageImageDeploy;

/**
 * The watch of a remote stage's cluster delivered a change of an ImageDeploy that settles a build (proves or fails
 * it): the cluster reached through the kubeconfig in {@code cluster}, a Secret of {@code promotionNamespace}.
 * Told on the watch's thread; whoever follows it only hands the work on.
 */
public record StageSettled(String promotionNamespace, SecretKeyRef cluster, StageImageDeploy deploy) {
}
