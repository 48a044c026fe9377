package dev.rekon.status;

import jakarta.inject.Singleton;

import com.fasterxml.jackson.databind.JsonNode;

import dev.rekon.buildpacks.catalog.KpackFacets;
import dev.rekon.buildpacks.view.BuildpackSource;
import dev.rekon.buildpacks.view.BuildpackView;
import dev.rekon.cluster.watch.KindFacet;
import dev.rekon.cluster.watch.WatchedKindId;
import dev.rekon.modules.KymaModules;
import dev.rekon.rollouts.plan.RolloutPlanner;
import dev.rekon.rollouts.watch.ManagedDeploymentFacet;

/**
 * What only the status page reads of kinds the functions watch anyway (each a facet of that kind's one watch):
 * a managed Deployment's rollout progress, a buildpack's view, and Kyma's release objects, which the page shows
 * whole.
 */
public final class StatusFacets {

    private StatusFacets() {
    }

    /** The rollout progress of a Deployment labelled {@code app.kubernetes.io/managed-by=rekon}. */
    public record Progress(String namespace, String name, String imageDeploy, StatusReport.Progress progress) {
    }

    @Singleton
    public static class DeploymentProgress extends KindFacet<Progress> {
        public DeploymentProgress() {
            super(ManagedDeploymentFacet.DEPLOYMENTS);
        }

        @Override
        public Progress view(JsonNode d) {
            JsonNode meta = d.path("metadata");
            if (!"rekon".equals(meta.path("labels").path(RolloutPlanner.MANAGED_BY).asText())) {
                return null;
            }
            return new Progress(meta.path("namespace").asText(null), meta.path("name").asText(null),
                    meta.path("labels").path(RolloutPlanner.IMAGEDEPLOY_LABEL).asText(null),
                    StatusViews.ManagedDeployment.progress(d));
        }
    }

    abstract static class Buildpacks extends KindFacet<BuildpackView> {
        Buildpacks(String kind) {
            super(KpackFacets.kindOf(kind));
        }

        @Override
        public BuildpackView view(JsonNode object) {
            return BuildpackView.of(object);
        }
    }

    @Singleton
    public static class NamespacedBuildpacks extends Buildpacks {
        public NamespacedBuildpacks() {
            super(BuildpackSource.BUILDPACK);
        }
    }

    @Singleton
    public static class ClusterBuildpacks extends Buildpacks {
        public ClusterBuildpacks() {
            super(BuildpackSource.CLUSTER_BUILDPACK);
        }
    }

    abstract static class Kyma extends KindFacet<JsonNode> {
        Kyma(String kind) {
            super(kindOf(kind));
        }

        private static WatchedKindId kindOf(String kind) {
            String[] gv = KymaModules.API_VERSION.split("/");
            return WatchedKindId.namespaced(gv[0], gv[1], kind.toLowerCase(java.util.Locale.ROOT) + "s", kind)
                    .inEveryNamespace();
        }

        @Override
        public JsonNode view(JsonNode object) {
            return object;
        }
    }

    @Singleton
    public static class ReleaseMetas extends Kyma {
        public ReleaseMetas() {
            super(KymaModules.RELEASE_META);
        }
    }

    @Singleton
    public static class Templates extends Kyma {
        public Templates() {
            super(KymaModules.TEMPLATE);
        }
    }
}
