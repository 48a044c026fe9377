package dev.rekon.promotions.apply;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;

import dev.rekon.cluster.watch.SharedWatches;
import dev.rekon.core.NamespacePolicy;
import dev.rekon.promotions.watch.KubeconfigSecretFacet;
import dev.rekon.testing.Await;
import dev.rekon.testing.Kpack;
import dev.rekon.testing.LocalCluster;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.rbac.PolicyRuleBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * A kubeconfig Secret's watch by name, on a real apiserver with RBAC: it answers the Secret as the apiserver has it
 * (rotated, deleted, created again) once synced; as a ServiceAccount whose Role grants {@code get}, {@code list} and
 * {@code watch} on that name only it answers too, and with {@code get} alone it never does (each read is a call).
 */
class KubeconfigSecretWatchesTest {

    static final String NS = "kubeconfig-watch";
    final KubernetesClient admin = LocalCluster.get().adminClient();
    SharedWatches shared;
    KubeconfigSecretWatches watches;

    @AfterEach
    void stop() {
        if (shared != null) {
            shared.stop();
        }
    }

    /** The Secrets' watches as Rekon's own shared watches made with {@code client}. */
    KubeconfigSecretWatches watching(KubernetesClient client) {
        KubeconfigSecretFacet facet = new KubeconfigSecretFacet();
        shared = SharedWatches.standalone(client, new ObjectMapper(), NamespacePolicy.parse("*"), List.of(facet));
        return new KubeconfigSecretWatches(shared, facet);
    }

    void secret(String name, String text) {
        admin.secrets().inNamespace(NS).resource(new SecretBuilder().withNewMetadata().withName(name).endMetadata()
                .withStringData(Map.of("kubeconfig", text)).build()).createOr(s -> s.update());
    }

    static String text(Optional<KubeconfigSecretWatches.Held> held) {
        Secret s = held.map(KubeconfigSecretWatches.Held::secret).orElse(null);
        return s == null ? null : new String(java.util.Base64.getDecoder().decode(s.getData().get("kubeconfig")));
    }

    @Test
    void aWatchedSecretIsAnsweredAsTheApiserverHasIt() {
        Kpack.namespace(admin, NS);
        secret("staging-kubeconfig", "one");
        watches = watching(admin);
        assertEquals(Optional.empty(), watches.held(NS, "staging-kubeconfig"), "not synced yet: read it");
        Await.until("the watch answers", () -> "one".equals(text(watches.held(NS, "staging-kubeconfig"))));
        secret("staging-kubeconfig", "two");
        Await.until("the rotated kubeconfig", () -> "two".equals(text(watches.held(NS, "staging-kubeconfig"))));
        admin.secrets().inNamespace(NS).withName("staging-kubeconfig").delete();
        Await.until("none, once deleted", () -> watches.held(NS, "staging-kubeconfig").map(h -> h.secret() == null)
                .orElse(false));
        secret("staging-kubeconfig", "three");
        Await.until("created again", () -> "three".equals(text(watches.held(NS, "staging-kubeconfig"))));
    }

    @Test
    void aRoleGrantingListAndWatchOnTheNameLetsItWatchAndGetAloneDoesNot() {
        Kpack.namespace(admin, NS);
        secret("watched-kubeconfig", "w");
        secret("got-kubeconfig", "g");
        secret("other", "o");
        admin.serviceAccounts().inNamespace(NS).resource(new ServiceAccountBuilder().withNewMetadata()
                .withName("rekon").endMetadata().build()).createOr(s -> s.update());
        role("watch-by-name", "watched-kubeconfig", List.of("get", "list", "watch"));
        role("get-by-name", "got-kubeconfig", List.of("get"));
        try (KubernetesClient rekon = LocalCluster.get().clientAs(NS, "rekon")) {
            watches = watching(rekon);
            watches.held(NS, "watched-kubeconfig");
            watches.held(NS, "got-kubeconfig");
            Await.until("the Secret watched by name", () -> "w".equals(text(watches.held(NS, "watched-kubeconfig"))));
            for (int i = 0; i < 20; i++) {
                assertEquals(Optional.empty(), watches.held(NS, "got-kubeconfig"), "get alone: read on each use");
                Thread.sleep(50);
            }
            assertTrue(rekon.secrets().inNamespace(NS).withName("got-kubeconfig").get() != null, "get is allowed");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void role(String name, String secret, List<String> verbs) {
        admin.rbac().roles().inNamespace(NS).resource(new RoleBuilder().withNewMetadata().withName(name).endMetadata()
                .withRules(new PolicyRuleBuilder().withApiGroups("").withResources("secrets").withResourceNames(secret)
                        .withVerbs(verbs).build()).build()).createOr(r -> r.update());
        admin.rbac().roleBindings().inNamespace(NS).resource(new RoleBindingBuilder().withNewMetadata().withName(name)
                .endMetadata().withNewRoleRef("rbac.authorization.k8s.io", "Role", name).addNewSubject()
                .withKind("ServiceAccount").withName("rekon").withNamespace(NS).endSubject().build())
                .createOr(r -> r.update());
    }
}
