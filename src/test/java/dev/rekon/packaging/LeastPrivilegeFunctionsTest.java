package dev.rekon.packaging;

import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

import dev.rekon.testing.BuildpackageImages;
import dev.rekon.testing.BuildpackageImages.Buildpack;
import dev.rekon.testing.Events;
import dev.rekon.testing.Kpack;
import dev.rekon.testing.LocalCluster;
import dev.rekon.testing.LocalRegistry;
import dev.rekon.testing.ServiceAccountTestResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/**
 * All three functions run as the ServiceAccount of {@code knative/rbac} (a TokenRequest token, RBAC on), bound
 * by {@code namespace-binding.yaml} in one namespace only: a rollout, a rollouts resync, a Buildpack and Builder
 * status, and a module upgrade all work there; Secrets, other namespaces and deletes of kpack objects are 403.
 */
@QuarkusTest
@TestProfile(LeastPrivilegeFunctionsTest.AsServiceAccount.class)
class LeastPrivilegeFunctionsTest {

    static final String ALLOWED = "sa-allowed";
    static final String OTHER = "sa-other";
    static final String KCP = "sa-kcp";
    static final String KYMA = "operator.kyma-project.io/v1beta2";
    static final String ADD = "dev.knative.apiserver.resource.add";

    public static class AsServiceAccount extends ServiceAccountTestResource.Profile {
        public AsServiceAccount() {
            super(ALLOWED);
        }
    }

    final KubernetesClient admin = LocalCluster.get().adminClient();

    @Test
    void rolloutAsTheServiceAccount() {
        Kpack.built(admin, ALLOWED, "app", "registry.local/app:1", 1);
        create(Kpack.IMAGE_DEPLOYS, """
                {"apiVersion": "rekon.dev/v1alpha1", "kind": "ImageDeploy", "metadata": {"name": "shop", "namespace": "%s"},
                 "spec": {"deployment": {"spec": {"selector": {"matchLabels": {"app": "shop"}},
                   "template": {"metadata": {"labels": {"app": "shop"}},
                     "spec": {"containers": [{"name": "web", "image": "REF=app"}]}}}}}}""".formatted(ALLOWED));
        var image = admin.genericKubernetesResources(Kpack.IMAGES).inNamespace(ALLOWED).withName("app").get();
        Events.binary(ADD, Events.apiServerExtensions("kpack.io/v1alpha2", "Image", ALLOWED, "app"), Kpack.json(image))
                .statusCode(200).body("outcome", equalTo("applied")).body("reason", equalTo("DeploymentCreated"));
        assertEquals("registry.local/app:1", admin.apps().deployments().inNamespace(ALLOWED).withName("shop").get()
                .getSpec().getTemplate().getSpec().getContainers().get(0).getImage());
    }

    @Test
    void rolloutResyncAsTheServiceAccount() {
        Kpack.built(admin, ALLOWED, "lib", "registry.local/lib:1", 1);
        create(Kpack.IMAGE_DEPLOYS, """
                {"apiVersion": "rekon.dev/v1alpha1", "kind": "ImageDeploy", "metadata": {"name": "resynced", "namespace": "%s"},
                 "spec": {"deployment": {"spec": {"selector": {"matchLabels": {"app": "resynced"}},
                   "template": {"metadata": {"labels": {"app": "resynced"}},
                     "spec": {"containers": [{"name": "web", "image": "REF=lib"}]}}}}}}""".formatted(ALLOWED));
        dev.rekon.testing.Await.until("a resync as the ServiceAccount to create Deployment resynced", () -> {
            Events.binary("dev.rekon.resync", java.util.Map.of(), "{\"scope\":\"rollouts\"}").statusCode(200)
                    .body("areas[0].area", equalTo("rollouts")).body("areas[0].failed", equalTo(0));
            return admin.apps().deployments().inNamespace(ALLOWED).withName("resynced").get() != null;
        });
    }

    @Test
    void buildpackAndBuilderStatusAsTheServiceAccount() throws Exception {
        // A registry without notifications: the shared one notifies this very application, whose push route
        // would then race the Buildpack event below to the same status write.
        LocalRegistry quiet = LocalRegistry.start(LocalRegistry.Options.plain("sa-quiet"));
        try {
            buildpackAndBuilderStatus(quiet.hostPort() + "/sa/java:1");
        } finally {
            quiet.stop();
        }
    }

    private void buildpackAndBuilderStatus(String image) throws Exception {
        new BuildpackageImages(Files.createDirectories(Path.of("target/sa-e2e-work"))).push(image, null, "sa/java",
                "1.0.0", "r1", Buildpack.of("sa/java@1.0.0"));
        create(kpack("Buildpack"), """
                {"apiVersion":"kpack.io/v1alpha2","kind":"Buildpack","metadata":{"name":"java","namespace":"%s"},
                 "spec":{"source":{"image":"%s"}}}""".formatted(ALLOWED, image));
        create(kpack("Builder"), """
                {"apiVersion":"kpack.io/v1alpha2","kind":"Builder","metadata":{"name":"web","namespace":"%s"},
                 "spec":{"tag":"%s/builders/web","order":[{"group":[{"id":"sa/java"}]}]}}""".formatted(ALLOWED, image));
        kpackEvent("Buildpack", "java").body("outcome", equalTo("applied"));
        // the Buildpack's event already resolved the Builder that names its id
        kpackEvent("Builder", "web").body("outcome", equalTo("unchanged"));
        var builder = admin.genericKubernetesResources(kpack("Builder")).inNamespace(ALLOWED).withName("web").get();
        assertEquals("sa/java", Serialization.jsonMapper().valueToTree(builder).at("/status/order/0/group/0/id").asText());
    }

    @Test
    void moduleUpgradeAsTheServiceAccount() {
        Kpack.namespace(admin, KCP);
        admin.apps().deployments().inNamespace(ALLOWED).resource(deployment("saturn", "0.1.0")).create();
        create(new ResourceDefinitionContext.Builder().withGroup("operator.kyma-project.io").withVersion("v1beta2")
                .withPlural("moduletemplates").withKind("ModuleTemplate").withNamespaced(true).build(), """
                {"apiVersion":"%s","kind":"ModuleTemplate","metadata":{"name":"saturn-0.2.0","namespace":"%s"},
                 "spec":{"moduleName":"saturn","version":"0.2.0","descriptor":{"meta":{"schemaVersion":"v2"},
                   "component":{"name":"kyma-project.io/module/saturn","version":"0.2.0","provider":"kyma-project.io",
                     "componentReferences":[],"sources":[],"repositoryContexts":[],
                     "resources":[{"name":"controller","type":"ociArtifact","relation":"external","version":"0.2.0",
                       "access":{"type":"ociArtifact","imageReference":"registry.example/saturn:0.2.0"}}]}}}}"""
                .formatted(KYMA, KCP));
        create(new ResourceDefinitionContext.Builder().withGroup("operator.kyma-project.io").withVersion("v1beta2")
                .withPlural("modulereleasemetas").withKind("ModuleReleaseMeta").withNamespaced(true).build(), """
                {"apiVersion":"%s","kind":"ModuleReleaseMeta","metadata":{"name":"saturn","namespace":"%s"},
                 "spec":{"moduleName":"saturn","channels":[{"channel":"regular","version":"0.2.0"}]}}"""
                .formatted(KYMA, KCP));
        Events.binary("dev.knative.apiserver.ref.update", Events.apiServerExtensions(KYMA, "ModuleReleaseMeta", KCP, "saturn"),
                "{\"apiVersion\":\"" + KYMA + "\",\"kind\":\"ModuleReleaseMeta\",\"namespace\":\"" + KCP
                        + "\",\"name\":\"saturn\"}")
                .statusCode(200).body("outcome", equalTo("applied")).body("reason", equalTo("Upgraded"));
        assertEquals("registry.example/saturn:0.2.0", admin.apps().deployments().inNamespace(ALLOWED).withName("saturn")
                .get().getSpec().getTemplate().getSpec().getContainers().get(0).getImage());
    }

    @Test
    void operationsOutsideTheRolesAreForbidden() {
        Kpack.namespace(admin, OTHER);
        admin.apps().deployments().inNamespace(OTHER).resource(deployment("bystander", "1")).createOr(d -> d.update());
        create(kpack("Buildpack"), """
                {"apiVersion":"kpack.io/v1alpha2","kind":"Buildpack","metadata":{"name":"java","namespace":"%s"},
                 "spec":{"source":{"image":"registry.example/java:1"}}}""".formatted(OTHER));
        try (KubernetesClient rekon = LocalCluster.get().clientAs("rekon", "rekon")) {
            assertForbidden(() -> rekon.secrets().inNamespace(ALLOWED).list());
            assertForbidden(() -> rekon.secrets().inNamespace(ALLOWED).withName("anything").get());
            assertForbidden(() -> rekon.apps().deployments().inNamespace(OTHER).resource(deployment("intruder", "1"))
                    .create());
            assertForbidden(() -> rekon.apps().deployments().inNamespace(OTHER).withName("bystander")
                    .patch("{\"metadata\":{\"labels\":{\"a\":\"b\"}}}"));
            assertForbidden(() -> rekon.genericKubernetesResources(kpack("Builder")).inNamespace(ALLOWED).withName("web")
                    .delete());
            assertForbidden(() -> rekon.genericKubernetesResources(kpack("ClusterBuilder")).withName("any").delete());
            assertForbidden(() -> rekon.genericKubernetesResources(kpack("Buildpack")).inNamespace(OTHER)
                    .withName("java").subresource("status").patch("{\"status\":{}}"));
        }
    }

    static ResourceDefinitionContext kpack(String kind) {
        boolean namespaced = !kind.startsWith("Cluster");
        return new ResourceDefinitionContext.Builder().withGroup("kpack.io").withVersion("v1alpha2")
                .withPlural(kind.toLowerCase(java.util.Locale.ROOT) + "s").withKind(kind).withNamespaced(namespaced)
                .build();
    }

    io.restassured.response.ValidatableResponse kpackEvent(String kind, String name) {
        var object = admin.genericKubernetesResources(kpack(kind)).inNamespace(ALLOWED).withName(name).get();
        return Events.binary(ADD, Events.apiServerExtensions("kpack.io/v1alpha2", kind, ALLOWED, name),
                Kpack.json(object)).statusCode(200);
    }

    void create(ResourceDefinitionContext context, String json) {
        GenericKubernetesResource r = Serialization.unmarshal(json, GenericKubernetesResource.class);
        admin.genericKubernetesResources(context).inNamespace(r.getMetadata().getNamespace()).resource(r)
                .createOr(x -> x.update());
    }

    static Deployment deployment(String module, String version) {
        return new DeploymentBuilder().withNewMetadata().withName(module).addToLabels("rekon.dev/module", module)
                .addToLabels("app.kubernetes.io/version", version).endMetadata().withNewSpec().withNewSelector()
                .addToMatchLabels("app", module).endSelector().withNewTemplate().withNewMetadata()
                .addToLabels("app", module).endMetadata().withNewSpec().addNewContainer().withName("controller")
                .withImage("registry.example/" + module + ":" + version).endContainer().endSpec().endTemplate()
                .endSpec().build();
    }

    private static void assertForbidden(Runnable call) {
        KubernetesClientException e = assertThrows(KubernetesClientException.class, call::run);
        assertEquals(403, e.getCode(), e.getMessage());
    }
}
