package dev.rekon.rollouts.apply;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import com.fasterxml.jackson.databind.JsonNode;

import dev.rekon.cluster.EventRecorder;
import dev.rekon.core.ConflictException;
import dev.rekon.core.ObjectRef;
import dev.rekon.core.RefusedException;
import dev.rekon.core.TransientFailureException;
import dev.rekon.resync.ResyncItem;
import dev.rekon.resync.ResyncScope;
import dev.rekon.rollouts.view.DeploymentView;
import dev.rekon.rollouts.view.ImageDeployView;

/**
 * Decides which Deployments a resync deletes: one Rekon labelled ({@code app.kubernetes.io/managed-by=rekon}) and
 * owns (an ImageDeploy owner reference) whose ImageDeploy no longer exists, or no longer names it because its
 * {@code spec.deployment.metadata.name} was renamed. Owner references only cover the first case, and only where
 * a garbage collector runs. Nothing else is touched: a Deployment without the label or without the owner, one
 * outside the pass's namespaces, or one whose ImageDeploy is suspended. The watch that lists candidates may lag,
 * so the ImageDeploy is read once more before a delete (a GET for each candidate only, never in a converged cluster),
 * and the delete is guarded by the uid and resourceVersion of the Deployment as the pass saw it: one changed or
 * replaced since is a conflict, left for the next pass.
 */
@ApplicationScoped
public class DeploymentPruner {

    public static final String PRUNED = "pruned";
    static final String REASON = "DeploymentPruned";

    @Inject
    RolloutGateway gateway;

    @Inject
    EventRecorder events;

    /** A pruner over the given gateway and Events, outside CDI. */
    public static DeploymentPruner on(RolloutGateway gateway, EventRecorder events) {
        DeploymentPruner pruner = new DeploymentPruner();
        pruner.gateway = gateway;
        pruner.events = events;
        return pruner;
    }

    /** @param groups the ImageDeploy groups whose watch answered: Deployments owned by another group stay */
    public List<ResyncItem> prune(List<ImageDeployView> idps, List<DeploymentView> deployments, java.util.Set<String> groups,
            ResyncScope scope) {
        Map<String, ImageDeployView> byKey = new HashMap<>();
        idps.forEach(i -> byKey.put(i.group() + "/" + i.namespace() + "/" + i.name(), i));
        List<ResyncItem> out = new ArrayList<>();
        for (DeploymentView d : deployments) {
            JsonNode owner = d.imageDeployOwner();
            if (!scope.covers(d.namespace()) || !d.managedByRekon() || owner == null) {
                continue;
            }
            String apiVersion = owner.path("apiVersion").asText("");
            String group = apiVersion.contains("/") ? apiVersion.substring(0, apiVersion.indexOf('/')) : "";
            String name = owner.path("name").asText();
            if (groups.contains(group) && !keeps(byKey.get(group + "/" + d.namespace() + "/" + name), d)) {
                ResyncItem item = confirmAndDelete(group, name, d, scope);
                if (item != null) {
                    out.add(item);
                }
            }
        }
        return out;
    }

    /** Whether the ImageDeploy still wants the Deployment (or holds every change while suspended). */
    private static boolean keeps(ImageDeployView idp, DeploymentView d) {
        return idp != null && (idp.deploymentName().equals(d.name()) || idp.suspend());
    }

    private ResyncItem confirmAndDelete(String group, String idpName, DeploymentView d, ResyncScope scope) {
        ObjectRef ref = new ObjectRef("apps/v1", "Deployment", d.namespace(), d.name());
        try {
            Optional<ImageDeployView> now = gateway.imageDeploy(group, d.namespace(), idpName);
            if (now.isPresent() && keeps(now.get(), d)) {
                return null;
            }
            String message = now.isEmpty()
                    ? "deleted Deployment " + d.namespace() + "/" + d.name() + ": its ImageDeploy " + idpName
                            + " no longer exists"
                    : "deleted Deployment " + d.namespace() + "/" + d.name() + ": ImageDeploy " + idpName
                            + " now names Deployment " + now.get().deploymentName() + " (spec.deployment.metadata.name)";
            if (scope.report()) {
                return new ResyncItem(ref, PRUNED, REASON, "would be " + message);
            }
            gateway.deleteDeployment(d);
            events.normal(ref, REASON, message);
            now.ifPresent(idp -> events.normal(idp.ref(), REASON, message));
            return new ResyncItem(ref, PRUNED, REASON, message);
        } catch (ConflictException e) {
            return new ResyncItem(ref, "conflict", REASON, "not pruned: Deployment " + d.namespace() + "/" + d.name()
                    + " changed or was replaced since this pass read it; the next pass plans it again");
        } catch (TransientFailureException | RefusedException e) {
            return new ResyncItem(ref, "failed", REASON, "could not prune: " + e.getMessage());
        }
    }
}
