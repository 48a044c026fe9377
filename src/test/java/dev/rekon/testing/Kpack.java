package dev.rekon.testing;

import java.util.List;
import java.util.Map;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.utils.Serialization;

/** Acts as kpack in tests: creates Images and reports builds in their status, as kpack's controller would. */
public final class Kpack {

    public static final ResourceDefinitionContext IMAGES = new ResourceDefinitionContext.Builder().withGroup("kpack.io")
            .withVersion("v1alpha2").withPlural("images").withKind("Image").withNamespaced(true).build();
    public static final ResourceDefinitionContext IMAGE_DEPLOYS = new ResourceDefinitionContext.Builder()
            .withGroup("rekon.dev").withVersion("v1alpha1").withPlural("imagedeploys").withKind("ImageDeploy")
            .withNamespaced(true).build();

    private Kpack() {
    }

    public static void namespace(KubernetesClient client, String name) {
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(name).endMetadata().build())
                .createOr(n -> n.update());
    }

    /** Creates (or updates) the Image and sets its status to a finished, Ready build. */
    public static GenericKubernetesResource built(KubernetesClient client, String ns, String name, String latestImage,
            long build) {
        var images = client.genericKubernetesResources(IMAGES).inNamespace(ns);
        GenericKubernetesResource image = images.withName(name).get();
        if (image == null) {
            image = Serialization.unmarshal("""
                    {"apiVersion": "kpack.io/v1alpha2", "kind": "Image",
                     "metadata": {"name": "%s", "namespace": "%s"},
                     "spec": {"tag": "registry.local/%s/%s", "serviceAccountName": "default",
                       "builder": {"kind": "ClusterBuilder", "name": "default"},
                       "source": {"git": {"url": "https://git.local/%s.git", "revision": "main"}}}}
                    """.formatted(name, ns, ns, name, name), GenericKubernetesResource.class);
            image = images.resource(image).create();
        }
        image.setAdditionalProperty("status", Map.of("latestImage", latestImage, "buildCounter", build,
                "latestBuildRef", name + "-build-" + build, "observedGeneration", 1,
                "conditions", List.of(Map.of("type", "Ready", "status", "True"),
                        Map.of("type", "BuilderReady", "status", "True"))));
        return images.resource(image).updateStatus();
    }

    public static String json(Object o) {
        return Serialization.asJson(o);
    }
}
