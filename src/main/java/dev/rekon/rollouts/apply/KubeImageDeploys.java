package dev.rekon.rollouts.apply;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.cluster.KubeErrors;
import dev.rekon.cluster.TreeCalls;
import dev.rekon.core.ObjectRef;
import dev.rekon.core.NotFoundException;
import dev.rekon.core.TransientFailureException;
import dev.rekon.rollouts.view.ImageDeployView;
import dev.rekon.rollouts.view.RolloutNames;
import dev.rekon.rollouts.watch.ImageDeployIndex;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;

/**
 * The ImageDeploys of rollouts on the Kubernetes API: those referencing a kpack Image from the
 * {@link ImageDeployIndex} (listed when it knows none), one read as the apiserver has it now, and the status
 * patched (only what changes) guarded by the resourceVersion the plan was made from, the answer recorded in the
 * index until the watch delivers it.
 */
@ApplicationScoped
public class KubeImageDeploys {

    @Inject
    KubernetesClient client;

    @Inject
    ObjectMapper mapper;

    @Inject
    ImageDeployIndex index;

    @Inject
    TreeCalls calls;

    static ResourceDefinitionContext context(String group) {
        return new ResourceDefinitionContext.Builder().withGroup(group)
                .withVersion("v1alpha1").withPlural("imagedeploys").withKind("ImageDeploy").withNamespaced(true)
                .build();
    }

    Optional<JsonNode> read(String group, String namespace, String name) {
        GenericKubernetesResource r = KubeErrors.call(new ObjectRef(group + "/v1alpha1", "ImageDeploy", namespace, name),
                "reading ImageDeploy " + namespace + "/" + name,
                () -> client.genericKubernetesResources(context(group)).inNamespace(namespace).withName(name).get());
        return Optional.ofNullable(r).map(mapper::valueToTree);
    }

    /**
     * Every ImageDeploy of {@code groups} in the namespace that references the kpack Image, as its watch last saw
     * it (writes guarded by that version catch one that is behind). Without a watch, or when it knows none (an
     * ImageDeploy created a moment ago may not have reached it yet), the namespace is listed.
     */
    List<ImageDeployView> referencing(List<String> groups, String namespace, String imageName) {
        return following(groups, RolloutNames.KPACK_IMAGE_KIND, namespace, imageName);
    }

    /** As {@link #referencing}, for the object of that kind (a kpack Image or a PromotedImage). */
    List<ImageDeployView> following(List<String> groups, String kind, String namespace, String imageName) {
        List<ImageDeployView> out = new ArrayList<>();
        for (String group : groups) {
            out.addAll(index.following(group, kind, namespace, imageName).orElse(List.of()));
        }
        return out.isEmpty() ? listFollowing(groups, kind, namespace, imageName) : out;
    }

    private List<ImageDeployView> listFollowing(List<String> groups, String kind, String namespace, String imageName) {
        List<ImageDeployView> out = new ArrayList<>();
        for (String group : groups) {
            List<GenericKubernetesResource> items = list(group, namespace);
            for (GenericKubernetesResource item : items) {
                ImageDeployView v = view(item);
                if (v.follows(kind, imageName)) {
                    out.add(v);
                }
            }
        }
        return out;
    }

    /**
     * The ImageDeploys of a group Rekon found served. A 404 for the whole list means the apiserver does not serve
     * the kind at this moment: one restarting serves its CRDs' kinds only once it has loaded them, so the input is
     * answered as a transient failure (redelivered), not refused.
     */
    private List<GenericKubernetesResource> list(String group, String namespace) {
        String what = "listing ImageDeploys in " + namespace;
        try {
            return KubeErrors.call(what, () -> client.genericKubernetesResources(context(group)).inNamespace(namespace)
                    .list().getItems());
        } catch (NotFoundException e) {
            throw new TransientFailureException(what + " answered HTTP 404: the apiserver does not serve " + group
                    + "'s ImageDeploys right now (restarting, or its CRD just removed); retrying", e);
        }
    }

    /**
     * Patches the status subresource with {@code statusPatch} (a JSON merge patch of the fields that change), guarded
     * by the resourceVersion the plan was made from: 409 when the ImageDeploy has moved on since. Returns the
     * resourceVersion the write gave it.
     */
    String writeStatus(ImageDeployView idp, ObjectNode statusPatch) {
        if (idp.resourceVersion() == null) {
            throw new IllegalArgumentException("a status write of ImageDeploy " + idp.namespace() + "/" + idp.name()
                    + " must be guarded by the resourceVersion it was planned from");
        }
        ObjectNode body = mapper.createObjectNode();
        body.set("status", statusPatch);
        JsonNode written = calls.mergePatch(idp.ref(), "patching the status of ImageDeploy " + idp.namespace() + "/"
                + idp.name(), TreeCalls.path(idp.apiVersion(), "imagedeploys", idp.namespace(), idp.name()) + "/status",
                body, idp.resourceVersion());
        ImageDeployView answered = ImageDeployView.fromJson(written);
        index.wrote(answered);
        return answered == null ? null : answered.resourceVersion();
    }

    private ImageDeployView view(GenericKubernetesResource r) {
        return ImageDeployView.fromJson(mapper.valueToTree(r));
    }
}
