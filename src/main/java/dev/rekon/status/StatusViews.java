package dev.rekon.status;

import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

import dev.rekon.buildpacks.view.BuilderView;
import dev.rekon.buildpacks.view.BuildpackView;
import dev.rekon.modules.plan.ModuleDeployment;
import dev.rekon.modules.release.ModuleTemplateView;
import dev.rekon.modules.release.ReleaseMetaView;
import dev.rekon.rollouts.view.DeploymentView;
import dev.rekon.rollouts.view.ImageDeployView;
import dev.rekon.rollouts.view.KpackImage;
import dev.rekon.rollouts.view.RolloutNames;

/**
 * Everything the report is made from, as the watch caches hold it at one moment: no field here needs an API call.
 *
 * @param unavailable what could not be watched (and so is missing from the report), in words
 */
public record StatusViews(List<WatchedImageDeploy> imageDeploys, List<ManagedDeployment> deployments,
        List<KpackImage> images, List<BuildpackView> buildpacks, List<BuilderView> builders,
        List<ModuleDeployment> moduleDeployments, List<ReleaseMetaView> releaseMetas,
        List<ModuleTemplateView> templates,
        List<StatusReport.Decision> decisions, List<String> unavailable) {

    public StatusViews {
        imageDeploys = List.copyOf(imageDeploys);
        deployments = List.copyOf(deployments);
        images = List.copyOf(images);
        buildpacks = List.copyOf(buildpacks);
        builders = List.copyOf(builders);
        moduleDeployments = List.copyOf(moduleDeployments);
        releaseMetas = List.copyOf(releaseMetas);
        templates = List.copyOf(templates);
        decisions = List.copyOf(decisions);
        unavailable = List.copyOf(unavailable);
    }

    /**
     * An ImageDeploy, whether its {@code spec.suspend} is true, and what the report reads of its spec (made once,
     * when the watch delivers it, so that a report of many ImageDeploys does not walk their specs again).
     */
    public record WatchedImageDeploy(ImageDeployView view, boolean suspended, List<ImageDeployView.ContainerRef> refs,
            String specProblem) {

        public static WatchedImageDeploy fromJson(JsonNode idp) {
            return of(ImageDeployView.fromJson(idp), idp.path("spec").path("suspend").asBoolean(false));
        }

        public static WatchedImageDeploy of(ImageDeployView view, boolean suspended) {
            return new WatchedImageDeploy(view, suspended, List.copyOf(view.refs()), view.specProblem());
        }
    }

    /**
     * A Deployment labelled {@code app.kubernetes.io/managed-by: rekon}: its rollout view, the ImageDeploy its
     * {@code rekon.dev/imagedeploy} label names, and its rollout progress.
     */
    public record ManagedDeployment(String namespace, DeploymentView view, String imageDeploy,
            StatusReport.Progress progress) {

        public static ManagedDeployment fromJson(JsonNode d) {
            JsonNode meta = d.path("metadata");
            return new ManagedDeployment(meta.path("namespace").asText(null), DeploymentView.fromJson(d),
                    meta.path("labels").path(RolloutNames.IMAGEDEPLOY_LABEL).asText(null),
                    progress(d));
        }

        static StatusReport.Progress progress(JsonNode d) {
            JsonNode s = d.path("status");
            JsonNode progressing = dev.rekon.cluster.Conditions.find(s.path("conditions"), "Progressing");
            JsonNode available = dev.rekon.cluster.Conditions.find(s.path("conditions"), "Available");
            return new StatusReport.Progress(s.has("observedGeneration"), d.path("spec").path("replicas").asInt(1), s.path("updatedReplicas").asInt(0),
                    s.path("readyReplicas").asInt(0), s.path("availableReplicas").asInt(0), text(progressing, "status"),
                    text(progressing, "reason"), text(available, "status"), text(available, "reason"));
        }

        private static String text(JsonNode condition, String field) {
            return condition == null ? null : condition.path(field).asText(null);
        }
    }
}
