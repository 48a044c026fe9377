package dev.rekon.rollouts;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.rekon.rollouts.apply.RolloutGateway;
import dev.rekon.rollouts.plan.PrunePlanner;
import dev.rekon.rollouts.view.DeploymentView;
import dev.rekon.rollouts.view.ImageDeployView;
import dev.rekon.rollouts.view.KpackImage;
import dev.rekon.rollouts.view.RolloutNames;
import dev.rekon.rollouts.watch.ResyncViews;

/**
 * The rollouts area's keys for the one loop, from the watches alone ({@link ResyncViews}): one
 * {@link RolloutKey} per ImageDeploy with the kpack Images it names and its managed Deployment, one
 * {@link PruneKey} per managed Deployment with its owning ImageDeploy. A resync pass and the status page read the
 * same keys, so the page shows the plans a pass applies.
 */
@ApplicationScoped
public class RolloutKeys {

    @Inject
    ResyncViews views;

    @Inject
    RolloutGateway gateway;

    /** The keys of one namespace (null: every allowed one), and the views they were made from. */
    public record Found(List<RolloutKey> rollouts, List<PruneKey> prunes, List<ImageDeployView> imageDeploys,
            List<KpackImage> images, List<DeploymentView> deployments) {
    }

    /**
     * The keys in {@code namespace}; {@code withImages} false when the cluster serves no kpack Image (then there
     * is no rollout key, only prune keys). Empty when a kind can be neither watched nor listed.
     */
    public Optional<Found> find(String namespace, boolean withImages) {
        Set<String> groups = new LinkedHashSet<>(List.of(RolloutNames.GROUP));
        Optional<List<ImageDeployView>> idps = imageDeploys(namespace, groups);
        Optional<List<KpackImage>> images = withImages ? views.images(namespace) : Optional.of(List.of());
        Optional<List<DeploymentView>> deployments = views.deployments(namespace);
        if (idps.isEmpty() || images.isEmpty() || deployments.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(keys(idps.get(), images.get(), deployments.get(), groups, namespace, withImages));
    }

    /** The keys made from these views (pure); {@code namespace} null for all of them. */
    public static Found keys(List<ImageDeployView> idps, List<KpackImage> images, List<DeploymentView> deployments,
            Set<String> groups, String namespace, boolean withImages) {
        return keys(idps, images, deployments, groups, namespace, withImages, Optional.empty());
    }

    /**
     * The same, with the PromotedImages their followers name when the caller holds them (the page, from their
     * watch); without them a follower's key reads the PromotedImage it follows.
     */
    public static Found keys(List<ImageDeployView> idps, List<KpackImage> images, List<DeploymentView> deployments,
            Set<String> groups, String namespace, boolean withImages, Optional<List<KpackImage>> promoted) {
        Map<String, KpackImage> imageIndex = new HashMap<>();
        images.forEach(i -> imageIndex.put(i.namespace() + "/" + i.name(), i));
        Map<String, KpackImage> promotedIndex = new HashMap<>();
        promoted.ifPresent(l -> l.forEach(i -> promotedIndex.put(i.namespace() + "/" + i.name(), i)));
        Map<String, DeploymentView> deploymentIndex = new HashMap<>();
        deployments.forEach(d -> deploymentIndex.put(d.namespace() + "/" + d.name(), d));
        Map<String, ImageDeployView> idpIndex = new HashMap<>();
        List<RolloutKey> rollouts = new ArrayList<>();
        for (ImageDeployView idp : idps) {
            if (namespace != null && !namespace.equals(idp.namespace())) {
                continue;
            }
            idpIndex.put(idp.group() + "/" + idp.namespace() + "/" + idp.name(), idp);
            if (withImages) {
                // Without a managed Deployment a plan that would create it reads the name once (it may be taken
                // by a Deployment without Rekon's label: a conflict); the write reads it again (newer than the watch).
                DeploymentView deployment = deploymentIndex.get(idp.namespace() + "/" + idp.deploymentName());
                // The pass lists kpack Images, not PromotedImages: those the loop reads for the key.
                rollouts.add(!idp.followsPromotedImages()
                        ? RolloutKey.resync(idp, KpackImage.named(idp.namespace(), idp.refs(), imageIndex), deployment)
                        : promoted.isPresent()
                                ? RolloutKey.resync(idp, KpackImage.named(idp.namespace(), idp.refs(), promotedIndex),
                                        deployment)
                                : RolloutKey.resyncReading(idp, deployment));
            }
        }
        List<PruneKey> prunes = new ArrayList<>();
        for (DeploymentView d : deployments) {
            if (namespace == null || namespace.equals(d.namespace())) {
                PrunePlanner.Owner owner = PrunePlanner.Owner.of(d);
                prunes.add(new PruneKey(d, Optional.ofNullable(owner == null ? null
                        : idpIndex.get(owner.group() + "/" + d.namespace() + "/" + owner.name())), groups));
            }
        }
        return new Found(rollouts, prunes, idps, images, deployments);
    }

    /**
     * The ImageDeploys of Rekon's group, and of kpush's when its watch runs (its CRD is optional: without it none
     * of its ImageDeploys exists, and none is pruned); {@code groups} gains each group read.
     */
    private Optional<List<ImageDeployView>> imageDeploys(String namespace, Set<String> groups) {
        Optional<List<ImageDeployView>> idps = views.imageDeploys(RolloutNames.GROUP, namespace);
        Optional<List<ImageDeployView>> kpush = idps.isPresent()
                && gateway.imageDeployGroups().contains(RolloutNames.KPUSH_GROUP)
                        ? views.imageDeploys(RolloutNames.KPUSH_GROUP, namespace) : Optional.empty();
        if (kpush.isEmpty()) {
            return idps;
        }
        groups.add(RolloutNames.KPUSH_GROUP);
        List<ImageDeployView> all = new ArrayList<>(idps.get());
        all.addAll(kpush.get());
        return Optional.of(all);
    }
}
