package dev.rekon.rollouts.apply;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.rollouts.plan.ImagePatch;
import dev.rekon.rollouts.view.DeploymentView;

/**
 * The strategic-merge patch body of an {@link ImagePatch}: the resourceVersion that guards it, the applied
 * builds annotation when the plan records one, and each changed container by name (containers are merged by
 * name, so the others are left as they are).
 */
public final class ImagePatchBody {

    private ImagePatchBody() {
    }

    public static ObjectNode of(ImagePatch patch) {
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        ObjectNode meta = body.putObject("metadata").put("resourceVersion", patch.resourceVersion());
        if (patch.appliedBuilds() != null) {
            meta.putObject("annotations").put(DeploymentView.APPLIED_BUILDS, patch.appliedBuilds());
        }
        ObjectNode pod = body.putObject("spec").putObject("template").putObject("spec");
        for (ImagePatch.Image i : patch.images()) {
            pod.withArray(i.init() ? "initContainers" : "containers").addObject()
                    .put("name", i.container()).put("image", i.image());
        }
        return body;
    }
}
