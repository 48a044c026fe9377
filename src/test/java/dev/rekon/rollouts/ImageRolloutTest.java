package dev.rekon.rollouts;

import static dev.rekon.testing.Events.apiServerExtensions;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.rekon.testing.Events;
import dev.rekon.testing.Kpack;
import dev.rekon.testing.LocalCluster;
import dev.rekon.testing.RekonTestResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;

/** Image rollouts end to end: CloudEvents posted to the running functions, results read from the real apiserver. */
@QuarkusTest
@QuarkusTestResource(value = RekonTestResource.class, restrictToAnnotatedClass = false)
class ImageRolloutTest {

    static final String UPDATE = "dev.knative.apiserver.resource.update";
    static final String V1 = "registry.local/shop/app@sha256:" + "a".repeat(64);
    static final String V2 = "registry.local/shop/app@sha256:" + "b".repeat(64);
    static final String V3 = "registry.local/shop/app@sha256:" + "c".repeat(64);

    static KubernetesClient k8s;

    @BeforeAll
    static void cluster() {
        k8s = LocalCluster.get().adminClient();
    }

    static GenericKubernetesResource imageDeploy(String ns, String name, String deploymentName) {
        GenericKubernetesResource idp = Serialization.unmarshal("""
                {"apiVersion": "rekon.dev/v1alpha1", "kind": "ImageDeploy",
                 "metadata": {"name": "%s", "namespace": "%s"},
                 "spec": {"deployment": {"metadata": {"name": "%s"},
                   "spec": {"replicas": 1, "selector": {"matchLabels": {"app": "%s"}},
                     "strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 1, "maxUnavailable": 0}},
                     "template": {"metadata": {"labels": {"app": "%s"}}, "spec": {
                       "containers": [{"name": "web", "image": "REF=app"}, {"name": "proxy", "image": "envoyproxy/envoy:v1.28.0"}]}}}}}}
                """.formatted(name, ns, deploymentName, name, name), GenericKubernetesResource.class);
        return k8s.genericKubernetesResources(Kpack.IMAGE_DEPLOYS).inNamespace(ns).resource(idp).create();
    }

    static String imageEvent(GenericKubernetesResource image, String mode) {
        return Kpack.json(image);
    }

    static Deployment deployment(String ns, String name) {
        return k8s.apps().deployments().inNamespace(ns).withName(name).get();
    }

    static GenericKubernetesResource idp(String ns, String name) {
        return k8s.genericKubernetesResources(Kpack.IMAGE_DEPLOYS).inNamespace(ns).withName(name).get();
    }

    @Test
    void createsThenPatchesOnlyTheImageAndIgnoresDuplicatesAndLateEvents() {
        String ns = "rollout-e2e";
        Kpack.namespace(k8s, ns);
        imageDeploy(ns, "shop", "shop-web");
        var v1 = Kpack.built(k8s, ns, "app", V1, 1);

        Events.binary(UPDATE, apiServerExtensions("kpack.io/v1alpha2", "Image", ns, "app"), Kpack.json(v1))
                .statusCode(200).header("ce-type", "dev.rekon.rollouts.result")
                .body("outcome", equalTo("applied")).body("reason", equalTo("DeploymentCreated"));
        Deployment created = deployment(ns, "shop-web");
        assertEquals(V1, created.getSpec().getTemplate().getSpec().getContainers().get(0).getImage());
        assertEquals("envoyproxy/envoy:v1.28.0", created.getSpec().getTemplate().getSpec().getContainers().get(1).getImage());
        assertEquals("rekon", created.getMetadata().getLabels().get("app.kubernetes.io/managed-by"));
        assertEquals("ImageDeploy", created.getMetadata().getOwnerReferences().get(0).getKind());

        // Another manager scales the Deployment; a rollout must not undo it.
        k8s.apps().deployments().inNamespace(ns).withName("shop-web").scale(4);
        var v2 = Kpack.built(k8s, ns, "app", V2, 2);
        Events.structured(UPDATE, apiServerExtensions("kpack.io/v1alpha2", "Image", ns, "app"), Kpack.json(v2))
                .statusCode(200).body("data.outcome", equalTo("applied")).body("data.reason", equalTo("ImageUpdated"));
        Deployment patched = deployment(ns, "shop-web");
        assertEquals(V2, patched.getSpec().getTemplate().getSpec().getContainers().get(0).getImage());
        assertEquals(4, patched.getSpec().getReplicas());
        assertEquals(0, patched.getSpec().getStrategy().getRollingUpdate().getMaxUnavailable().getIntVal());

        // The status is the report written after the reply; once it tells of build 2, nothing else is due.
        awaitStatus(ns, "shop", "\"buildCounter\":2");
        String deploymentVersion = patched.getMetadata().getResourceVersion();
        String idpVersion = idp(ns, "shop").getMetadata().getResourceVersion();
        Events.binary(UPDATE, apiServerExtensions("kpack.io/v1alpha2", "Image", ns, "app"), Kpack.json(v2))
                .statusCode(200).body("outcome", equalTo("unchanged")).body("reason", equalTo("UpToDate"));
        Events.binary(UPDATE, apiServerExtensions("kpack.io/v1alpha2", "Image", ns, "app"), Kpack.json(v1))
                .statusCode(200).body("outcome", equalTo("unchanged")).body("reason", equalTo("OlderBuild"));
        assertEquals(deploymentVersion, deployment(ns, "shop-web").getMetadata().getResourceVersion(), "zero writes");
        assertEquals(idpVersion, idp(ns, "shop").getMetadata().getResourceVersion(), "zero status writes");

        @SuppressWarnings("unchecked")
        Map<String, Object> status = (Map<String, Object>) idp(ns, "shop").getAdditionalProperties().get("status");
        String json = Kpack.json(status);
        assertTrue(json.contains("\"buildCounter\":2"), json);
        assertTrue(json.contains("\"reason\":\"ImagesApplied\""), json);
        // Kept by the CRD's schema, not pruned: a recreated Image (its builds counted from 1 again) is told by its uid.
        assertTrue(json.contains("\"imageUid\":\"" + v2.getMetadata().getUid() + "\""), json);
        // Events are written after the reply.
        dev.rekon.testing.Await.until("an ImageUpdated Event on the Deployment", () -> k8s.v1().events().inNamespace(ns)
                .list().getItems().stream()
                .anyMatch(e -> "ImageUpdated".equals(e.getReason()) && "Deployment".equals(e.getInvolvedObject().getKind())));
    }

    @Test
    void imageDeployEventsInReferenceModeAndDeletion() {
        String ns = "rollout-ref";
        Kpack.namespace(k8s, ns);
        Kpack.built(k8s, ns, "app", V3, 7);
        imageDeploy(ns, "api", "");
        String ref = "{\"apiVersion\":\"rekon.dev/v1alpha1\",\"kind\":\"ImageDeploy\",\"namespace\":\"" + ns
                + "\",\"name\":\"api\"}";
        Events.binary("dev.knative.apiserver.ref.add", apiServerExtensions("rekon.dev/v1alpha1", "ImageDeploy", ns, "api"), ref)
                .statusCode(200).body("outcome", equalTo("applied"))
                .body("objects.name", hasItem("api"));
        assertEquals(V3, deployment(ns, "api").getSpec().getTemplate().getSpec().getContainers().get(0).getImage());

        GenericKubernetesResource gone = idp(ns, "api");
        k8s.genericKubernetesResources(Kpack.IMAGE_DEPLOYS).inNamespace(ns).withName("api").delete();
        k8s.genericKubernetesResources(Kpack.IMAGE_DEPLOYS).inNamespace(ns).withName("api")
                .waitUntilCondition(r -> r == null, 10, java.util.concurrent.TimeUnit.SECONDS);
        Events.binary("dev.knative.apiserver.resource.delete",
                apiServerExtensions("rekon.dev/v1alpha1", "ImageDeploy", ns, "api"), Kpack.json(gone))
                .statusCode(200).body("outcome", equalTo("applied")).body("reason", equalTo("DeploymentDeleted"));
        assertNull(deployment(ns, "api"));
        Events.binary("dev.knative.apiserver.resource.delete",
                apiServerExtensions("rekon.dev/v1alpha1", "ImageDeploy", ns, "api"), Kpack.json(gone))
                .statusCode(200).body("outcome", equalTo("unchanged")).body("reason", equalTo("NoDeployment"));
    }

    @Test
    void kpushImageDeploysRollOutToo() {
        String ns = "rollout-kpush";
        Kpack.namespace(k8s, ns);
        var kpush = new io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext.Builder()
                .withGroup("crd.whizzosoftware.com").withVersion("v1alpha1").withPlural("imagedeploys")
                .withKind("ImageDeploy").withNamespaced(true).build();
        GenericKubernetesResource idp = Serialization.unmarshal("""
                {"apiVersion": "crd.whizzosoftware.com/v1alpha1", "kind": "ImageDeploy",
                 "metadata": {"name": "legacy", "namespace": "%s"},
                 "spec": {"deployment": {"spec": {"selector": {"matchLabels": {"app": "legacy"}},
                   "template": {"metadata": {"labels": {"app": "legacy"}},
                     "spec": {"containers": [{"name": "web", "image": "REF=app"}]}}}}}}
                """.formatted(ns), GenericKubernetesResource.class);
        k8s.genericKubernetesResources(kpush).inNamespace(ns).resource(idp).create();
        var image = Kpack.built(k8s, ns, "app", V1, 3);
        Events.binary(UPDATE, apiServerExtensions("kpack.io/v1alpha2", "Image", ns, "app"), Kpack.json(image))
                .statusCode(200).body("outcome", equalTo("applied"));
        Deployment d = deployment(ns, "legacy");
        assertEquals(V1, d.getSpec().getTemplate().getSpec().getContainers().get(0).getImage());
        assertEquals("crd.whizzosoftware.com/v1alpha1", d.getMetadata().getOwnerReferences().get(0).getApiVersion());
    }

    @Test
    void referenceModeDeleteFindsTheDeploymentByItsLabel() {
        String ns = "rollout-ref-delete";
        Kpack.namespace(k8s, ns);
        Kpack.built(k8s, ns, "app", V1, 1);
        imageDeploy(ns, "named", "custom-name");
        String ref = "{\"apiVersion\":\"rekon.dev/v1alpha1\",\"kind\":\"ImageDeploy\",\"namespace\":\"" + ns
                + "\",\"name\":\"named\"}";
        Events.binary("dev.knative.apiserver.ref.add", apiServerExtensions("rekon.dev/v1alpha1", "ImageDeploy", ns, "named"), ref)
                .statusCode(200).body("outcome", equalTo("applied"));
        k8s.genericKubernetesResources(Kpack.IMAGE_DEPLOYS).inNamespace(ns).withName("named").delete();
        k8s.genericKubernetesResources(Kpack.IMAGE_DEPLOYS).inNamespace(ns).withName("named")
                .waitUntilCondition(r -> r == null, 10, java.util.concurrent.TimeUnit.SECONDS);
        Events.binary("dev.knative.apiserver.ref.delete",
                apiServerExtensions("rekon.dev/v1alpha1", "ImageDeploy", ns, "named"), ref)
                .statusCode(200).body("outcome", equalTo("applied")).body("reason", equalTo("DeploymentDeleted"));
        assertNull(deployment(ns, "custom-name"));
    }

    @Test
    void missingImageIsRejectedWithTheReasonInStatus() {
        String ns = "rollout-missing";
        Kpack.namespace(k8s, ns);
        imageDeploy(ns, "orphan", "orphan");
        String ref = "{\"apiVersion\":\"rekon.dev/v1alpha1\",\"kind\":\"ImageDeploy\",\"namespace\":\"" + ns
                + "\",\"name\":\"orphan\"}";
        Events.binary("dev.knative.apiserver.ref.update",
                apiServerExtensions("rekon.dev/v1alpha1", "ImageDeploy", ns, "orphan"), ref)
                .statusCode(200).body("outcome", equalTo("rejected")).body("reason", equalTo("ImageNotFound"));
        awaitStatus(ns, "orphan", "\"reason\":\"ImageNotFound\"");
        assertNull(deployment(ns, "orphan"));
    }

    @Test
    void aBurstOfBuildsEndsWithTheStatusReportingTheNewest() {
        String ns = "rollout-burst";
        Kpack.namespace(k8s, ns);
        imageDeploy(ns, "shop", "shop");
        int builds = 12;
        for (int b = 1; b <= builds; b++) {
            String image = "registry.local/shop/app@sha256:" + String.format("%064x", b);
            String data = "{\"namespace\":\"" + ns + "\",\"image\":\"app\",\"latestImage\":\"" + image
                    + "\",\"buildNumber\":" + b + "}";
            Events.binary(RolloutFunctions.MANUAL_TYPE, Map.of(), data).statusCode(200).body("outcome", equalTo("applied"));
        }
        String newest = "registry.local/shop/app@sha256:" + String.format("%064x", builds);
        assertEquals(newest, deployment(ns, "shop").getSpec().getTemplate().getSpec().getContainers().get(0).getImage());
        awaitStatus(ns, "shop", "\"buildCounter\":" + builds + ",");
        String status = Kpack.json(idp(ns, "shop").getAdditionalProperties().get("status"));
        assertTrue(status.contains("\"image\":\"" + newest + "\""), status);
        assertTrue(status.contains("\"reason\":\"ImageUpdated\"") && status.contains("build " + builds + " of kpack Image app"),
                "Progressing tells of the newest rollout: " + status);
    }

    static void awaitStatus(String ns, String name, String fragment) {
        dev.rekon.testing.Await.until("the status of ImageDeploy " + ns + "/" + name + " to contain " + fragment,
                () -> Kpack.json(idp(ns, name).getAdditionalProperties().get("status")).contains(fragment));
    }

    @Test
    void manualEventForCurlUsers() {
        String ns = "rollout-manual";
        Kpack.namespace(k8s, ns);
        Kpack.built(k8s, ns, "app", V1, 1);
        imageDeploy(ns, "shop", "shop");
        String data = "{\"namespace\":\"" + ns + "\",\"image\":\"app\",\"latestImage\":\"" + V2
                + "\",\"buildNumber\":2,\"time\":\"2026-11-26T10:00:00Z\"}";
        Events.binary(RolloutFunctions.MANUAL_TYPE, Map.of(), data).statusCode(200)
                .body("outcome", equalTo("applied"));
        assertEquals(V2, deployment(ns, "shop").getSpec().getTemplate().getSpec().getContainers().get(0).getImage());
        awaitStatus(ns, "shop", "\"buildTime\":\"2026-11-26T10:00:00Z\"");
        Events.binary(RolloutFunctions.MANUAL_TYPE, Map.of(), "{\"namespace\":\"" + ns + "\",\"image\":\"app\"}")
                .statusCode(400).body("error", equalTo("InvalidEvent"))
                .body("message", equalTo("dev.rekon.image.built needs a non-empty string \"latestImage\""));
        Events.binary(RolloutFunctions.MANUAL_TYPE, Map.of(), "{not json").statusCode(400)
                .body("error", equalTo("InvalidEvent"));
    }
}
