package dev.rekon.packaging;

import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.rekon.testing.Events;
import dev.rekon.testing.Kpack;
import dev.rekon.testing.LocalCluster;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.apps.DeploymentStatus;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/**
 * Image promotion as the ServiceAccount of {@code knative/rbac} (role {@code rekon-promotions}, bound by
 * {@code namespace-binding.yaml} in one namespace): a build proven in one stage is written into the next stage's
 * PromotedImage; a stage behind a kubeconfig Secret is refused, naming the Secret, until the by-name Role of
 * {@code knative/examples/promotions} grants it (Secrets are never readable otherwise).
 */
@QuarkusTest
@TestProfile(LeastPrivilegeFunctionsTest.AsServiceAccount.class)
class LeastPrivilegePromotionTest {

    static final String NS = LeastPrivilegeFunctionsTest.ALLOWED;
    static final String B1 = "registry.local/sa/promoted@sha256:" + "7".repeat(64);
    static final ResourceDefinitionContext PROMOTIONS = context("imagepromotions", "ImagePromotion");
    static final ResourceDefinitionContext PROMOTED = context("promotedimages", "PromotedImage");

    final KubernetesClient admin = LocalCluster.get().adminClient();

    static ResourceDefinitionContext context(String plural, String kind) {
        return new ResourceDefinitionContext.Builder().withGroup("rekon.dev").withVersion("v1alpha1")
                .withPlural(plural).withKind(kind).withNamespaced(true).build();
    }

    void create(ResourceDefinitionContext context, String json) {
        GenericKubernetesResource r = Serialization.unmarshal(json, GenericKubernetesResource.class);
        admin.genericKubernetesResources(context).inNamespace(NS).resource(r).createOr(x -> x.update());
    }

    static String imageDeploy(String name, String refKind) {
        return """
                {"apiVersion": "rekon.dev/v1alpha1", "kind": "ImageDeploy", "metadata": {"name": "%s", "namespace": "%s"},
                 "spec": {%s"deployment": {"spec": {"selector": {"matchLabels": {"app": "%s"}},
                   "template": {"metadata": {"labels": {"app": "%s"}},
                     "spec": {"containers": [{"name": "web", "image": "REF=%s"}]}}}}}}"""
                .formatted(name, NS, refKind == null ? "" : "\"refKind\": \"" + refKind + "\", ", name, name,
                        refKind == null ? "promoted" : "promoted-staging");
    }

    @Test
    void promotionAsTheServiceAccount() {
        GenericKubernetesResource image = Kpack.built(admin, NS, "promoted", B1, 1);
        create(Kpack.IMAGE_DEPLOYS, imageDeploy("promoted-dev", null));
        create(Kpack.IMAGE_DEPLOYS, imageDeploy("promoted-staging", "PromotedImage"));
        Events.binary("dev.knative.apiserver.resource.update", Events.apiServerExtensions("kpack.io/v1alpha2", "Image",
                NS, "promoted"), Kpack.json(image)).statusCode(200).body("outcome", equalTo("applied"));
        admin.apps().deployments().inNamespace(NS).withName("promoted-dev").editStatus(d -> {
            String now = Instant.now().minusSeconds(1).toString();
            d.setStatus(Serialization.unmarshal("""
                    {"observedGeneration": %d, "replicas": 1, "updatedReplicas": 1, "readyReplicas": 1, "availableReplicas": 1,
                     "conditions": [{"type": "Available", "status": "True", "lastTransitionTime": "%s"}]}
                    """.formatted(d.getMetadata().getGeneration(), now), DeploymentStatus.class));
            return d;
        });
        // Rekon follows the Deployment's status into the ImageDeploy's RolledOut, after the reply: the stage's proof.
        dev.rekon.testing.Await.until("ImageDeploy promoted-dev says RolledOut=True", () -> {
            var idp = admin.genericKubernetesResources(Kpack.IMAGE_DEPLOYS).inNamespace(NS).withName("promoted-dev").get();
            Object status = idp.getAdditionalProperties().get("status");
            Object conditions = status instanceof Map<?, ?> m ? m.get("conditions") : null;
            return conditions instanceof java.util.List<?> l && l.stream().anyMatch(c -> c instanceof Map<?, ?> cm
                    && "RolledOut".equals(cm.get("type")) && "True".equals(cm.get("status")));
        });
        create(PROMOTIONS, """
                {"apiVersion": "rekon.dev/v1alpha1", "kind": "ImagePromotion", "metadata": {"name": "sa", "namespace": "%s"},
                 "spec": {"source": {"image": "promoted"}, "stages": [
                   {"name": "dev", "imageDeploys": ["promoted-dev"]},
                   {"name": "staging", "promotedImage": "promoted-staging", "imageDeploys": ["promoted-staging"]}]}}
                """.formatted(NS));
        reconcile("sa").body("outcome", equalTo("applied")).body("reason", equalTo("Promoted"));
        GenericKubernetesResource promoted = admin.genericKubernetesResources(PROMOTED).inNamespace(NS)
                .withName("promoted-staging").get();
        assertEquals(B1, ((Map<?, ?>) promoted.getAdditionalProperties().get("status")).get("latestImage"));

        admin.secrets().inNamespace(NS).resource(new SecretBuilder().withNewMetadata().withName("elsewhere")
                .endMetadata().addToStringData("kubeconfig", "clusters: []").build()).createOr(s -> s.update());
        create(PROMOTIONS, """
                {"apiVersion": "rekon.dev/v1alpha1", "kind": "ImagePromotion", "metadata": {"name": "remote", "namespace": "%s"},
                 "spec": {"source": {"image": "promoted"}, "stages": [
                   {"name": "dev", "imageDeploys": ["promoted-dev"]},
                   {"name": "far", "cluster": {"secretRef": {"name": "elsewhere"}}, "promotedImage": "promoted-staging",
                    "imageDeploys": ["promoted-staging"]}]}}
                """.formatted(NS));
        reconcile("remote").body("outcome", equalTo("rejected")).body("reason", equalTo("ApiRefused"))
                .body("message", containsString("Secret " + NS + "/elsewhere"));
    }

    static io.restassured.response.ValidatableResponse reconcile(String name) {
        return Events.binary("dev.rekon.promotion.reconcile", Map.of(), "{\"namespace\": \"" + NS + "\", \"name\": \""
                + name + "\"}").statusCode(200);
    }
}
