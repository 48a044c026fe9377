package dev.rekon.webhooks;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.rekon.rollouts.view.PushSubscriber;
import dev.rekon.rollouts.watch.ImageDeployPushIndex;
import dev.rekon.testing.Await;
import dev.rekon.testing.Kpack;
import dev.rekon.testing.LocalCluster;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The push index finds exactly the ImageDeploys that follow a repository (a container naming it directly, and an
 * update policy), and follows their changes through its watch, so a push reads no other ImageDeploy.
 */
@QuarkusTest
class ImageDeployPushIndexTest {

    static final String NS = "push-index";
    static final String A = "registry.example.com/index/a";
    static final String B = "registry.example.com/index/b";

    @Inject
    ImageDeployPushIndex index;

    @Test
    void findsOnlyTheImageDeploysFollowingTheRepository() throws Exception {
        KubernetesClient k8s = LocalCluster.get().adminClient();
        Kpack.namespace(k8s, NS);
        create(k8s, "follows-a", true, A + ":1.0.0", "REF=web");
        create(k8s, "names-a-without-policy", false, A + ":1.0.0");
        create(k8s, "follows-b", true, B + "@sha256:" + "b".repeat(64));

        Await.until("the index shows follows-a for " + A, () -> names(A).equals(List.of("follows-a")));
        Await.until("the index shows follows-b for " + B, () -> names(B).equals(List.of("follows-b")));
        assertEquals(List.of(), names("registry.example.com/index/web"));

        create(k8s, "follows-b", true, A + ":2.0.0");
        Await.until("follows-b moved from " + B + " to " + A, () -> names(B).isEmpty()
                && names(A).equals(List.of("follows-a", "follows-b")));
        k8s.genericKubernetesResources(Kpack.IMAGE_DEPLOYS).inNamespace(NS).withName("follows-a").delete();
        Await.until("follows-a gone from the index", () -> names(A).equals(List.of("follows-b")));
    }

    List<String> names(String repository) {
        return index.following(repository).stream().map(PushSubscriber::name).sorted().toList();
    }

    static void create(KubernetesClient k8s, String name, boolean policy, String... images) {
        StringBuilder containers = new StringBuilder();
        for (int i = 0; i < images.length; i++) {
            containers.append(i == 0 ? "" : ",").append("{\"name\": \"c").append(i).append("\", \"image\": \"")
                    .append(images[i]).append("\"}");
        }
        GenericKubernetesResource idp = Serialization.unmarshal("""
                {"apiVersion": "rekon.dev/v1alpha1", "kind": "ImageDeploy", "metadata": {"name": "%s", "namespace": "%s"},
                 "spec": {%s"deployment": {"spec": {"selector": {"matchLabels": {"app": "%s"}},
                   "template": {"metadata": {"labels": {"app": "%s"}}, "spec": {"containers": [%s]}}}}}}
                """.formatted(name, NS, policy ? "\"updatePolicy\": {\"level\": \"minor\"}, " : "", name, name, containers),
                GenericKubernetesResource.class);
        k8s.genericKubernetesResources(Kpack.IMAGE_DEPLOYS).inNamespace(NS).resource(idp).createOr(r -> r.update());
    }
}
