package dev.rekon.rollouts.apply;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.rollouts.plan.NewDeployment;
import dev.rekon.rollouts.view.DeploymentView;
import dev.rekon.rollouts.view.ImageDeployView;
import dev.rekon.rollouts.view.RolloutNames;

/**
 * The Deployment object a {@link NewDeployment} creates: the ImageDeploy's template (its metadata and spec, kept as
 * written), with the name and namespace, Rekon's labels, the applied-builds annotation, the ImageDeploy as
 * controlling owner, and the images planned for its {@code REF=} containers.
 */
public final class NewDeploymentBody {

    private NewDeploymentBody() {
    }

    public static ObjectNode of(NewDeployment planned) {
        ImageDeployView idp = planned.imageDeploy();
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
        annotations.put(DeploymentView.APPLIED_BUILDS, planned.appliedBuilds());
        meta.putArray("ownerReferences").add(idp.ownerReference());
        d.set("metadata", meta);
        ObjectNode spec = (ObjectNode) template.path("spec");
        JsonNode pod = spec.path("template").path("spec");
        for (String list : new String[] { "initContainers", "containers" }) {
            for (JsonNode c : pod.path(list)) {
                String image = planned.imageOf("initContainers".equals(list), c.path("name").asText());
                if (image != null) {
                    ((ObjectNode) c).put("image", image);
                }
            }
        }
        d.set("spec", spec);
        return d;
    }
}
