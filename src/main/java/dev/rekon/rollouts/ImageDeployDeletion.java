package dev.rekon.rollouts;

import java.util.List;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.rekon.core.ObjectRef;
import dev.rekon.core.Reply;
import dev.rekon.pipeline.ApiRefusals;
import dev.rekon.rollouts.RolloutInput.ImageDeployDeleted;

/**
 * Decides what an ImageDeploy's deletion does to its Deployment: deleted when the ImageDeploy owns it and is
 * really gone (a garbage collector would do the same through the ownerReference, but none may be running);
 * kept when the ImageDeploy exists again or the Deployment is not its own.
 */
@ApplicationScoped
public class ImageDeployDeletion {

    @Inject
    RolloutGateway gateway;

    public Reply imageDeployDeleted(ImageDeployDeleted d) {
        Optional<ImageDeployView> now = gateway.imageDeploy(d.group(), d.namespace(), d.name());
        if (now.isPresent()) {
            return Reply.unchanged("ImageDeployExists", "ImageDeploy " + d.namespace() + "/" + d.name()
                    + " exists again (uid " + now.get().uid() + "); its Deployment is kept", List.of());
        }
        // A Reference-mode delete carries no spec: the label Rekon put on the Deployment names its ImageDeploy.
        String target = d.deploymentName() != null ? d.deploymentName()
                : gateway.deploymentLabelledFor(d.namespace(), d.name()).orElse(d.name());
        ObjectRef ref = new ObjectRef("apps/v1", "Deployment", d.namespace(), target);
        Optional<DeploymentView> deployment = gateway.deployment(d.namespace(), target);
        if (deployment.isEmpty()) {
            return Reply.unchanged("NoDeployment", "Deployment " + d.namespace() + "/" + target + " is already gone",
                    List.of(ref));
        }
        if (!ownedBy(deployment.get(), d.name(), d.uid())) {
            return Reply.unchanged("NotOwned", "Deployment " + d.namespace() + "/" + target
                    + " is not owned by ImageDeploy " + d.name() + "; it is left in place", List.of(ref));
        }
        return ApiRefusals.asReply(List.of(ref), () -> {
            gateway.deleteDeployment(d.namespace(), target, null);
            return Reply.applied("DeploymentDeleted", "deleted Deployment " + d.namespace() + "/" + target
                    + " of the deleted ImageDeploy " + d.name(), List.of(ref));
        });
    }

    static boolean ownedBy(DeploymentView d, String name, String uid) {
        for (var o : d.ownerReferences()) {
            if ("ImageDeploy".equals(o.path("kind").asText()) && name.equals(o.path("name").asText())
                    && (uid == null || uid.equals(o.path("uid").asText()))) {
                return true;
            }
        }
        return false;
    }
}
