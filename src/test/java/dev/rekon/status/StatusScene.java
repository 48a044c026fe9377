package dev.rekon.status;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.rekon.testing.Await;
import dev.rekon.testing.Events;
import dev.rekon.testing.Kpack;
import dev.rekon.testing.SharedFiles;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentStatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.restassured.path.json.JsonPath;

/**
 * The README walkthroughs' objects (ImageDeploy and Image {@code demo/hello}, Builder {@code default/sample-builder},
 * module kpack at 0.4.1 with 2.0.0 released) and three more ImageDeploys of {@code hello}'s kind, each put into one
 * state by writing the objects directly: {@code hello-drifted} (its Deployment's image changed by hand),
 * {@code hello-paused} ({@code spec.suspend: true}), and {@code world} (its Image has a newer Ready build than the
 * one applied). The Deployments get the status a Deployment controller would write, as the test apiserver runs none.
 */
final class StatusScene {

    static final String NS = "demo";
    static final String UPDATE = "dev.knative.apiserver.resource.update";
    static final String HOTFIX = "127.0.0.1:5000/demo/hello:hotfix";
    static final String WORLD_1 = "127.0.0.1:5000/demo/world@sha256:" + "1".repeat(64);
    static final String WORLD_2 = "127.0.0.1:5000/demo/world@sha256:" + "2".repeat(64);

    private static boolean created;

    private StatusScene() {
    }

    static synchronized void create(KubernetesClient k8s) {
        if (created) {
            return;
        }
        for (String ns : List.of(NS, "kpack", "kcp-system")) {
            Kpack.namespace(k8s, ns);
        }
        apply(k8s, "rollouts/image.yaml");
        GenericKubernetesResource hello = yaml("rollouts/imagedeploy.yaml").get(0);
        createOrUpdate(k8s, hello);
        createOrUpdate(k8s, renamed(hello, "hello-drifted", "REF=hello", false));
        createOrUpdate(k8s, renamed(hello, "hello-paused", "REF=hello", false));
        createOrUpdate(k8s, renamed(hello, "world", "REF=world", false));
        watched(List.of("hello", "hello-drifted", "hello-paused", "world"));
        String built = read("rollouts/image-built-event.json");
        Map<String, Object> status = Serialization.unmarshal(built, GenericKubernetesResource.class).get("status");
        Kpack.built(k8s, NS, "hello", (String) status.get("latestImage"), 1);
        Events.binary(UPDATE, Events.apiServerExtensions("kpack.io/v1alpha2", "Image", NS, "hello"), built).statusCode(200);
        GenericKubernetesResource world = Kpack.built(k8s, NS, "world", WORLD_1, 1);
        Events.binary(UPDATE, Events.apiServerExtensions("kpack.io/v1alpha2", "Image", NS, "world"), Kpack.json(world))
                .statusCode(200);
        Kpack.built(k8s, NS, "world", WORLD_2, 2);
        k8s.apps().deployments().inNamespace(NS).withName("hello-drifted").edit(d -> {
            d.getSpec().getTemplate().getSpec().getContainers().get(0).setImage(HOTFIX);
            return d;
        });
        for (String name : List.of("hello", "hello-drifted", "hello-paused", "world")) {
            rolledOut(k8s, name);
        }
        // Suspended after its rollout, as a user holds a running app: a suspended ImageDeploy gets no Deployment.
        createOrUpdate(k8s, renamed(hello, "hello-paused", "REF=hello", true));
        apply(k8s, "buildpacks/builder.yaml");
        Events.binary("dev.knative.apiserver.ref.add", Map.of("apiversion", "kpack.io/v1alpha2", "kind", "Builder",
                "namespace", "default", "name", "sample-builder"), "{\"apiVersion\":\"kpack.io/v1alpha2\",\"kind\":"
                + "\"Builder\",\"namespace\":\"default\",\"name\":\"sample-builder\"}").statusCode(200);
        for (String f : List.of("01-kpack-installed-0.4.1.yaml", "moduletemplate-kpack-2.0.0.yaml",
                "modulereleasemeta-kpack-regular-2.0.0.yaml")) {
            apply(k8s, "modules/" + f);
        }
        Events.binary("dev.knative.apiserver.ref.update", Map.of("apiversion", "operator.kyma-project.io/v1beta2",
                "kind", "ModuleReleaseMeta", "namespace", "kcp-system", "name", "kpack"), "{\"apiVersion\":"
                + "\"operator.kyma-project.io/v1beta2\",\"kind\":\"ModuleReleaseMeta\",\"namespace\":\"kcp-system\","
                + "\"name\":\"kpack\"}").statusCode(200);
        created = true;
    }

    /**
     * Waits until Rekon's ImageDeploy watch holds these (the page lists what it holds). An Image event finds the
     * ImageDeploys following it through that watch, as it would after an ApiServerSource's event; one written a
     * moment before its watch delivers it is rolled out by its own event, which this scene does not send, so an
     * Image event sent sooner could leave it out under load.
     */
    private static void watched(List<String> names) {
        Await.until("Rekon's watch holds ImageDeploys " + names, Duration.ofSeconds(60), () -> {
            JsonPath report = Loaded.get("/status", null).then().statusCode(200).extract().jsonPath();
            return names.stream().allMatch(n -> !StatusPageTest.rollout(report, n).isEmpty());
        });
    }

    /** What a Deployment controller reports once every replica runs the current template. */
    private static void rolledOut(KubernetesClient k8s, String name) {
        Deployment d = k8s.apps().deployments().inNamespace(NS).withName(name).get();
        int replicas = d.getSpec().getReplicas();
        d.setStatus(new DeploymentStatusBuilder().withObservedGeneration(d.getMetadata().getGeneration())
                .withReplicas(replicas).withUpdatedReplicas(replicas).withReadyReplicas(replicas)
                .withAvailableReplicas(replicas)
                .addNewCondition().withType("Progressing").withStatus("True").withReason("NewReplicaSetAvailable").endCondition()
                .addNewCondition().withType("Available").withStatus("True").withReason("MinimumReplicasAvailable").endCondition()
                .build());
        k8s.apps().deployments().inNamespace(NS).resource(d).updateStatus();
    }

    @SuppressWarnings("unchecked")
    private static GenericKubernetesResource renamed(GenericKubernetesResource hello, String name, String image,
            boolean suspend) {
        String json = Serialization.asJson(hello).replace("\"hello\"", "\"" + name + "\"")
                .replace("\"REF=hello\"", "\"" + image + "\"");
        GenericKubernetesResource copy = Serialization.unmarshal(json, GenericKubernetesResource.class);
        if (suspend) {
            ((Map<String, Object>) copy.getAdditionalProperties().get("spec")).put("suspend", true);
        }
        return copy;
    }

    private static void apply(KubernetesClient k8s, String example) {
        yaml(example).forEach(r -> createOrUpdate(k8s, r));
    }

    private static void createOrUpdate(KubernetesClient k8s, GenericKubernetesResource r) {
        var op = k8s.genericKubernetesResources(r.getApiVersion(), r.getKind());
        (r.getMetadata().getNamespace() == null ? op.resource(r) : op.inNamespace(r.getMetadata().getNamespace()).resource(r))
                .createOr(x -> x.update());
    }

    private static List<GenericKubernetesResource> yaml(String example) {
        return java.util.Arrays.stream(read(example).split("(?m)^---$")).filter(doc -> doc.contains("kind:"))
                .map(doc -> Serialization.unmarshal(doc, GenericKubernetesResource.class)).toList();
    }

    private static String read(String example) {
        try {
            return Files.readString(examples().resolve(example));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Path examples() {
        return SharedFiles.projectDir().resolve("knative/examples");
    }
}
