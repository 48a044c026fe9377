package dev.rekon.testing;

import java.time.Instant;
import java.util.List;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.apps.DeploymentStatus;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.utils.Serialization;

/**
 * The objects image-promotion tests and the promotion bench make in each cluster: the ImageDeploy {@code hello} of a
 * stage, an ImagePromotion {@code hello} from its stages, the kubeconfig Secret of a remote stage, and the
 * Deployment's status as its controller writes it once rolled out (no controller-manager runs here).
 */
public final class PromotionFixtures {

    public static final ResourceDefinitionContext PROMOTIONS = context("imagepromotions", "ImagePromotion");
    public static final ResourceDefinitionContext PROMOTED = context("promotedimages", "PromotedImage");

    private PromotionFixtures() {
    }

    static ResourceDefinitionContext context(String plural, String kind) {
        return new ResourceDefinitionContext.Builder().withGroup("rekon.dev").withVersion("v1alpha1")
                .withPlural(plural).withKind(kind).withNamespaced(true).build();
    }

    /** The ImageDeploy {@code hello} of one replica, following the kpack Image or ({@code refKind}) a PromotedImage. */
    public static GenericKubernetesResource imageDeploy(KubernetesClient k, String ns, String refKind) {
        return imageDeploy(k, ns, "hello", refKind);
    }

    /** The same, named {@code name} and following the object of that name. */
    public static GenericKubernetesResource imageDeploy(KubernetesClient k, String ns, String name, String refKind) {
        GenericKubernetesResource idp = Serialization.unmarshal("""
                {"apiVersion": "rekon.dev/v1alpha1", "kind": "ImageDeploy",
                 "metadata": {"name": "hello", "namespace": "%s"},
                 "spec": {%s"deployment": {"spec": {"replicas": 1, "selector": {"matchLabels": {"app": "hello"}},
                   "template": {"metadata": {"labels": {"app": "hello"}},
                     "spec": {"containers": [{"name": "web", "image": "REF=hello"}]}}}}}}
                """.replace("hello", name).formatted(ns, refKind == null ? "" : "\"refKind\": \"" + refKind
                        + "\", "), GenericKubernetesResource.class);
        return k.genericKubernetesResources(Kpack.IMAGE_DEPLOYS).inNamespace(ns).resource(idp).createOr(r -> r.update());
    }

    /** A stage in the promotion's own cluster and namespace, listing {@code hello}. */
    public static String localStage(String name, String soak) {
        return "{\"name\": \"" + name + "\", \"imageDeploys\": [\"hello\"]" + (soak == null ? "" : ", \"soak\": \""
                + soak + "\"") + "}";
    }

    /** A stage in namespace {@code ns}, of another cluster when {@code secret} names its kubeconfig Secret. */
    public static String stage(String name, String secret, String ns) {
        return stage(name, secret, ns, null);
    }

    /** The same, the other cluster's CDEvents naming {@code environment} (null: not declared). */
    public static String stage(String name, String secret, String ns, String environment) {
        return "{\"name\": \"" + name + "\"" + (secret == null ? "" : ", \"cluster\": {\"secretRef\": {\"name\": \""
                + secret + "\"}" + (environment == null ? "" : ", \"environment\": \"" + environment + "\"") + "}")
                + ", \"namespace\": \"" + ns + "\", \"promotedImage\": \"hello\", \"imageDeploys\": [\"hello\"]}";
    }

    /** The ImagePromotion {@code hello} in {@code ns} of the kpack Image {@code hello} through these stages. */
    public static GenericKubernetesResource promotion(KubernetesClient k, String ns, List<String> stages) {
        GenericKubernetesResource p = Serialization.unmarshal("""
                {"apiVersion": "rekon.dev/v1alpha1", "kind": "ImagePromotion",
                 "metadata": {"name": "hello", "namespace": "%s"},
                 "spec": {"source": {"image": "hello"}, "stages": [%s]}}
                """.formatted(ns, String.join(", ", stages)), GenericKubernetesResource.class);
        return k.genericKubernetesResources(PROMOTIONS).inNamespace(ns).resource(p).createOr(r -> r.update());
    }

    /** The kubeconfig Secret of a remote stage, in the promotion's namespace. */
    public static void kubeconfigSecret(KubernetesClient k, String ns, String name, String kubeconfig) {
        k.secrets().inNamespace(ns).resource(new SecretBuilder().withNewMetadata().withName(name).endMetadata()
                .addToStringData("kubeconfig", kubeconfig).build()).createOr(s -> s.update());
    }

    /** The Deployment {@code hello}'s status as its controller writes it once every replica is updated and available. */
    public static void deploymentRolledOut(KubernetesClient k, String ns) {
        k.apps().deployments().inNamespace(ns).withName("hello").editStatus(d -> {
            String now = Instant.now().minusSeconds(1).toString();
            d.setStatus(Serialization.unmarshal("""
                    {"observedGeneration": %d, "replicas": 1, "updatedReplicas": 1, "readyReplicas": 1,
                     "availableReplicas": 1, "conditions": [
                       {"type": "Available", "status": "True", "reason": "MinimumReplicasAvailable",
                        "lastTransitionTime": "%s", "lastUpdateTime": "%s"},
                       {"type": "Progressing", "status": "True", "reason": "NewReplicaSetAvailable",
                        "lastTransitionTime": "%s", "lastUpdateTime": "%s"}]}
                    """.formatted(d.getMetadata().getGeneration(), now, now, now, now), DeploymentStatus.class));
            return d;
        });
    }
}
