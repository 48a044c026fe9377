package dev.rekon.modules.manifest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.UUID;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.core.RefusedException;
import dev.rekon.modules.manifest.ModuleManifest.Provenance;
import dev.rekon.modules.release.ModuleTemplateView;
import dev.rekon.testing.LocalCluster;
import dev.rekon.testing.LocalRegistry;
import dev.rekon.testing.RekonTestResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The application's {@link ManifestSource} as wired: it reads a component version from a registry behind basic
 * auth with the pull Secret named in {@code rekon.modules.registry-pull-secrets}, found in the ModuleTemplate's
 * namespace on the real apiserver, and is refused where that namespace has no such Secret.
 */
@QuarkusTest
@QuarkusTestResource(value = RekonTestResource.class, restrictToAnnotatedClass = false)
@QuarkusTestResource(value = ManifestSourceQuarkusTest.PullSecretConfig.class, restrictToAnnotatedClass = true)
class ManifestSourceQuarkusTest {

    static final String SECRET = "module-registry";
    static LocalRegistry guarded;

    /** Names the pull Secret the source reads. */
    public static class PullSecretConfig implements QuarkusTestResourceLifecycleManager {
        @Override
        public Map<String, String> start() {
            return Map.of("rekon.modules.registry-pull-secrets", SECRET);
        }

        @Override
        public void stop() {
            // nothing started
        }
    }

    @Inject
    ManifestSource source;

    final KubernetesClient admin = LocalCluster.get().adminClient();

    @BeforeAll
    static void startRegistry() {
        guarded = LocalRegistry.start(LocalRegistry.Options.plain("registry-manifests-quarkus")
                .withBasicAuth("modules", "s3cret"));
    }

    @AfterAll
    static void stopRegistry() {
        guarded.stop();
    }

    String namespace(boolean withSecret) {
        String ns = "manifest-" + UUID.randomUUID().toString().substring(0, 8);
        admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata().build()).create();
        if (withSecret) {
            String config = "{\"auths\": {\"" + guarded.hostPort() + "\": {\"username\": \"modules\", \"password\": \"s3cret\"}}}";
            admin.secrets().inNamespace(ns).resource(new SecretBuilder().withNewMetadata().withName(SECRET).endMetadata()
                    .withType("kubernetes.io/dockerconfigjson").addToData(".dockerconfigjson", Base64.getEncoder()
                            .encodeToString(config.getBytes(StandardCharsets.UTF_8))).build()).create();
        }
        return ns;
    }

    @Test
    void theComponentIsReadWithThePullSecretOfTheTemplatesNamespace() throws Exception {
        byte[] blob = ManifestRegistryEndToEndTest.uniqueYaml();
        ObjectNode d = ManifestRegistryEndToEndTest.component("0.4.1", guarded.hostPort(), blob);
        new OcmRegistry(guarded.hostPort(), "modules:s3cret").pushComponent(d, blob);
        ObjectNode t = ManifestFixtures.template("kpack-0.4.1", "0.4.1", d);
        ((ObjectNode) t.get("metadata")).put("namespace", namespace(true));
        ModuleManifest m = source.fetch(ModuleTemplateView.of(t));
        assertEquals(Provenance.UNSIGNED, m.provenance());
        assertEquals(3, m.objects().size());

        ((ObjectNode) t.get("metadata")).put("namespace", namespace(false));
        RefusedException e = assertThrows(RefusedException.class, () -> source.fetch(ModuleTemplateView.of(t)));
        assertTrue(e.getMessage().contains("(RegistryUnauthorized"), e.getMessage());
    }
}
