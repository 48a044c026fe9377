package dev.rekon.bench;

import java.util.concurrent.atomic.AtomicLong;

import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;

/** The yardstick of the cold figures: a plain strategic-merge PATCH of a Deployment's image, from a warm client. */
final class RawPatches {

    private final KubernetesClient admin;
    private final KubernetesClient client;
    private final String namespace;
    private final AtomicLong builds = new AtomicLong();

    RawPatches(KubernetesClient admin, KubernetesClient client, String namespace) {
        this.admin = admin;
        this.client = client;
        this.namespace = namespace;
    }

    void create(String name) {
        admin.apps().deployments().inNamespace(namespace).resource(deployment(name).editSpec().withReplicas(1)
                .withNewSelector().addToMatchLabels("app", name).endSelector().withNewTemplate().withNewMetadata()
                .addToLabels("app", name).endMetadata().withNewSpec().addNewContainer().withName("web")
                .withImage(Poster.digest("r/raw", 0)).endContainer().endSpec().endTemplate().endSpec().build()).create();
    }

    /** One PATCH with a new image; named by an object so that fabric8 sends no GET first. */
    void patch(String name) {
        String patch = "{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"web\",\"image\":\""
                + Poster.digest("r/raw", builds.incrementAndGet()) + "\"}]}}}}";
        client.apps().deployments().inNamespace(namespace).resource(deployment(name).build()).patch(
                new PatchContext.Builder().withPatchType(PatchType.STRATEGIC_MERGE).withFieldManager("bench").build(), patch);
    }

    private DeploymentBuilder deployment(String name) {
        return new DeploymentBuilder().withNewMetadata().withName(name).withNamespace(namespace).endMetadata()
                .withNewSpec().endSpec();
    }
}
