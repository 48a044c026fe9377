package dev.rekon.modules.manifest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;

import dev.rekon.modules.manifest.ModuleManifest.Provenance;
import dev.rekon.modules.ocm.PublicKeys;
import dev.rekon.modules.ocm.SignatureVerifier;
import dev.rekon.modules.release.ModuleTemplateView;
import dev.rekon.registry.RegistryClient;
import dev.rekon.testing.Commands;
import dev.rekon.testing.LocalCluster;
import dev.rekon.testing.LocalRegistry;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;

/**
 * What {@code hack/push-sample-module.sh} publishes: three signed versions in a real registry whose manifests
 * read back SIGNED with the generated key, and ModuleTemplates and a ModuleReleaseMeta the real apiserver accepts.
 */
class SampleModuleTest {

    static LocalRegistry registry;

    @BeforeAll
    static void start() {
        registry = LocalRegistry.start(LocalRegistry.Options.plain("registry-manifests-sample"));
    }

    @AfterAll
    static void stop() {
        registry.stop();
    }

    static List<String> objects(ModuleManifest m) {
        return m.objects().stream().map(o -> o.path("kind").asText() + "/" + o.path("metadata").path("name").asText())
                .toList();
    }

    @Test
    void publishesThreeSignedVersionsAndTheirKymaObjects(@TempDir Path dir) throws Exception {
        // The key pair as the script makes it.
        Path key = dir.resolve("key.pem");
        Path trusted = dir.resolve("trusted.pem");
        Commands.run(dir, "openssl", "genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out",
                key.toString());
        Commands.run(dir, "openssl", "pkey", "-in", key.toString(), "-pubout", "-out", trusted.toString());
        String ns = "sample-" + UUID.randomUUID().toString().substring(0, 8);
        SampleModule.main(new String[] { registry.hostPort(), registry.hostPort(), key.toString(), dir.toString(), ns,
                "0.4.1", "0.4.3", "2.0.0" });

        ManifestReader reader = new ManifestReader(new RegistryManifestGateway(new RegistryClient(Set.of(),
                Duration.ofSeconds(10)), (t, h) -> Optional.empty(), Set.of(), Duration.ofSeconds(10)),
                new SignatureVerifier(PublicKeys.load(trusted.toString())), true);
        ModuleManifest first = reader.fetch(ModuleTemplateView.of(yaml(dir.resolve("moduletemplate-kpack-0.4.1.yaml"))));
        ModuleManifest second = reader.fetch(ModuleTemplateView.of(yaml(dir.resolve("moduletemplate-kpack-0.4.3.yaml"))));
        ModuleManifest major = reader.fetch(ModuleTemplateView.of(yaml(dir.resolve("moduletemplate-kpack-2.0.0.yaml"))));
        for (ModuleManifest m : List.of(first, second, major)) {
            assertEquals(Provenance.SIGNED, m.provenance());
            assertEquals("Kpack", m.defaultCr().path("kind").asText());
        }
        assertEquals(List.of("Namespace/kpack", "CustomResourceDefinition/kpacks.operator.kyma-project.io",
                "ServiceAccount/kpack-controller", "Role/kpack-controller", "RoleBinding/kpack-controller",
                "ConfigMap/kpack-config", "Deployment/kpack-controller"), objects(first));
        assertEquals(objects(first).stream().filter(o -> !o.startsWith("ConfigMap/")).toList(), objects(second));
        assertTrue(!role(first).equals(role(second)), "0.4.3 changes the Role");
        assertEquals("2.0.0", major.version());

        KubernetesClient admin = LocalCluster.get().adminClient();
        admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata().build()).create();
        try (var files = Files.list(dir)) {
            for (Path f : files.filter(p -> p.getFileName().toString().startsWith("module")).toList()) {
                admin.resource(Serialization.unmarshal(Files.readString(f), GenericKubernetesResource.class)).create();
            }
        }
        assertEquals(3, admin.genericKubernetesResources("operator.kyma-project.io/v1beta2", "ModuleTemplate")
                .inNamespace(ns).list().getItems().size());
    }

    static JsonNode role(ModuleManifest m) {
        return m.objects().stream().filter(o -> o.path("kind").asText().equals("Role")).findFirst().orElseThrow()
                .path("rules");
    }

    static ObjectNode yaml(Path file) throws IOException {
        return (ObjectNode) new YAMLMapper().readTree(file.toFile());
    }
}
