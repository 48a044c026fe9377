package dev.rekon.rollouts.plan;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.rollouts.view.AppliedImage;
import dev.rekon.rollouts.view.DeploymentView;
import dev.rekon.rollouts.view.ImageDeployView.ContainerRef;
import dev.rekon.rollouts.view.ImageDeployView;
import dev.rekon.rollouts.view.KpackImage;
import dev.rekon.rollouts.view.RolloutNames;

/**
 * What {@link RolloutPlanner} writes to a Deployment, and how it says so: the whole Deployment it creates
 * (labelled and owned by the ImageDeploy, the applied builds recorded), or the patch of only the containers whose
 * image changes, carrying the resourceVersion it was planned from.
 */
final class DeploymentWrites {

    /** One container whose image the plan sets. */
    record Target(ContainerRef ref, String image) {
    }

    private DeploymentWrites() {
    }

    static ObjectNode create(ImageDeployView idp, Map<String, KpackImage> usable, String appliedBuilds) {
        ObjectNode d = JsonNodeFactory.instance.objectNode();
        d.put("apiVersion", "apps/v1");
        d.put("kind", "Deployment");
        // deployment() parses the template text into a tree of its own: read once, it is changed in place.
        JsonNode template = idp.deployment();
        ObjectNode meta = template.path("metadata").isObject() ? (ObjectNode) template.get("metadata")
                : JsonNodeFactory.instance.objectNode();
        meta.put("name", idp.deploymentName());
        meta.put("namespace", idp.namespace());
        ObjectNode labels = meta.path("labels").isObject() ? (ObjectNode) meta.get("labels") : meta.putObject("labels");
        labels.put(RolloutNames.MANAGED_BY, "rekon");
        labels.put(RolloutNames.IMAGEDEPLOY_LABEL, idp.name());
        ObjectNode annotations = meta.path("annotations").isObject() ? (ObjectNode) meta.get("annotations")
                : meta.putObject("annotations");
        annotations.put(DeploymentView.APPLIED_BUILDS, appliedBuilds);
        meta.putArray("ownerReferences").add(idp.ownerReference());
        d.set("metadata", meta);
        ObjectNode spec = (ObjectNode) template.path("spec");
        JsonNode pod = spec.path("template").path("spec");
        for (String list : new String[] { "initContainers", "containers" }) {
            for (JsonNode c : pod.path(list)) {
                String image = c.path("image").asText("");
                if (image.startsWith(ImageDeployView.REF_PREFIX)) {
                    String name = image.substring(ImageDeployView.REF_PREFIX.length()).trim();
                    ((ObjectNode) c).put("image", usable.get(name).latestImage());
                }
            }
        }
        d.set("spec", spec);
        return d;
    }

    static ImagePatch patch(DeploymentView live, List<Target> changes, String appliedBuilds) {
        return new ImagePatch(live.resourceVersion(), changes.stream()
                .map(t -> new ImagePatch.Image(t.ref().init(), t.ref().container(), t.image())).toList(), appliedBuilds);
    }

    static String describe(List<ContainerRef> refs, Map<String, KpackImage> usable) {
        if (refs.isEmpty()) {
            return "its images as written (no REF= images)";
        }
        List<String> parts = new ArrayList<>();
        for (ContainerRef ref : refs) {
            KpackImage img = usable.get(ref.imageName());
            parts.add((ref.init() ? "initContainer " : "container ") + ref.container() + "=" + img.latestImage());
        }
        return String.join(", ", parts);
    }

    static String describeChanges(List<Target> changes, Map<String, KpackImage> usable) {
        List<String> parts = new ArrayList<>();
        for (Target t : changes) {
            KpackImage img = usable.get(t.ref().imageName());
            parts.add((t.ref().init() ? "initContainer " : "container ") + t.ref().container() + " to " + t.image()
                    + " (" + AppliedImage.describe(img.buildCounter(), img.buildTime()) + " of kpack Image "
                    + img.name() + ")");
        }
        return String.join(", ", parts);
    }
}
