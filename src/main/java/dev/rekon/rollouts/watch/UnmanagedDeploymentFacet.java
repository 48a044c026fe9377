package dev.rekon.rollouts.watch;

import java.util.Collection;
import java.util.List;

import jakarta.inject.Singleton;

import com.fasterxml.jackson.databind.JsonNode;

import dev.rekon.cluster.watch.KindFacet;
import dev.rekon.rollouts.view.RolloutNames;

/**
 * The names taken by Deployments Rekon does not manage (no label {@code app.kubernetes.io/managed-by=rekon}), a
 * facet of the one Deployment watch holding only each name: a rollout that would create a Deployment reads it from
 * the apiserver only when this shows its name taken, so a page or a pass over ImageDeploys whose Deployments are
 * not created yet costs no read per ImageDeploy.
 */
@Singleton
public class UnmanagedDeploymentFacet extends KindFacet<String> {

    public UnmanagedDeploymentFacet() {
        super(ManagedDeploymentFacet.DEPLOYMENTS);
    }

    @Override
    public String view(JsonNode object) {
        JsonNode meta = object.path("metadata");
        return "rekon".equals(meta.path("labels").path(RolloutNames.MANAGED_BY).asText()) ? null
                : meta.path("name").asText(null);
    }

    @Override
    public Collection<String> indexKeys(String name) {
        return List.of(name);
    }
}
