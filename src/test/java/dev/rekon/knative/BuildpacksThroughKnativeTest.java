package dev.rekon.knative;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.rekon.testing.Await;
import dev.rekon.testing.BuildpackageImages;
import dev.rekon.testing.BuildpackageImages.Buildpack;
import dev.rekon.testing.LocalCluster;
import dev.rekon.testing.LocalRegistry;
import dev.rekon.testing.RekonTestResource;
import dev.rekon.testing.knative.KnativeLoop;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Buildpack, ClusterBuildpack, Builder and ClusterBuilder changes through Knative's own ApiServerSource adapter,
 * from the shipped sources (rekon-buildpacks in Resource mode, rekon-cluster-buildpacks in Reference mode) and
 * Triggers: each kind reaches its function, which writes the status a kpack user reads.
 */
@QuarkusTest
@QuarkusTestResource(value = RekonTestResource.class, restrictToAnnotatedClass = false)
class BuildpacksThroughKnativeTest {

    private static final String NS = "kn-buildpacks";
    private final KubernetesClient admin = LocalCluster.get().adminClient();
    private KnativeLoop loop;
    private LocalRegistry registry;

    @AfterEach
    void stop() {
        if (loop != null) {
            loop.close();
        }
        // Gone before their registry: later tests in this JVM must not find buildpacks they cannot read.
        for (String kind : List.of("ClusterBuildpack", "ClusterBuilder")) {
            admin.genericKubernetesResources("kpack.io/v1alpha2", kind).withLabel("test", "kn-buildpacks").delete();
        }
        for (String kind : List.of("Buildpack", "Builder")) {
            admin.genericKubernetesResources("kpack.io/v1alpha2", kind).inNamespace(NS).delete();
        }
        if (registry != null) {
            registry.stop();
        }
    }

    @Test
    void everyBuildpackKindReachesItsFunction() throws Exception {
        registry = LocalRegistry.start(LocalRegistry.Options.plain("kn-buildpacks"));
        BuildpackageImages images = new BuildpackageImages(Files.createDirectories(Path.of("target/kn-buildpacks")));
        String java = registry.hostPort() + "/bp/java:1";
        String node = registry.hostPort() + "/bp/node:1";
        images.push(java, null, "acme/java", "1.0.0", "r1", Buildpack.of("acme/java@1.0.0"));
        images.push(node, null, "acme/node", "1.0.0", "r1", Buildpack.of("acme/node@1.0.0"));
        admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NS)
                .withLabels(Map.of("rekon.dev/watched", "true")).endMetadata().build()).createOr(n -> n.update());

        loop = KnativeLoop.start(LocalCluster.get(), RekonTestResource.port(), "buildpacks");
        loop.start(loop.source("rekon-buildpacks"));
        loop.start(loop.source("rekon-cluster-buildpacks").inMode("Reference"));

        create("""
                {"apiVersion":"kpack.io/v1alpha2","kind":"ClusterBuildpack","metadata":{"name":"kn-java","labels":{"test":"kn-buildpacks"}},
                 "spec":{"source":{"image":"%s"}}}""".formatted(java));
        create("""
                {"apiVersion":"kpack.io/v1alpha2","kind":"Buildpack","metadata":{"name":"node","namespace":"%s"},
                 "spec":{"source":{"image":"%s"}}}""".formatted(NS, node));
        create("""
                {"apiVersion":"kpack.io/v1alpha2","kind":"Builder","metadata":{"name":"web","namespace":"%s"},
                 "spec":{"tag":"%s/builders/web","serviceAccountName":"default",
                   "order":[{"group":[{"id":"acme/java"},{"id":"acme/node"}]}]}}""".formatted(NS, registry.hostPort()));
        create("""
                {"apiVersion":"kpack.io/v1alpha2","kind":"ClusterBuilder","metadata":{"name":"kn-cluster","labels":{"test":"kn-buildpacks"}},
                 "spec":{"tag":"%s/builders/cluster","order":[{"group":[{"id":"acme/java"}]}]}}"""
                .formatted(registry.hostPort()));

        for (String[] o : List.of(new String[] { "ClusterBuildpack", null, "kn-java" },
                new String[] { "Buildpack", NS, "node" }, new String[] { "Builder", NS, "web" },
                new String[] { "ClusterBuilder", null, "kn-cluster" })) {
            Await.until(o[0] + " " + o[2] + " has a status from Rekon", Duration.ofSeconds(30),
                    () -> status(o[0], o[1], o[2]) != null);
            loop.awaitDelivered(o[0], o[2]);
        }
        loop.assertAllDeliveredOnce();
    }

    private void create(String json) {
        admin.resource(Serialization.unmarshal(json, GenericKubernetesResource.class)).createOr(x -> x.update());
    }

    private Object status(String kind, String ns, String name) {
        var op = admin.genericKubernetesResources("kpack.io/v1alpha2", kind);
        GenericKubernetesResource r = ns == null ? op.withName(name).get() : op.inNamespace(ns).withName(name).get();
        return r == null ? null : r.getAdditionalProperties().get("status");
    }
}
