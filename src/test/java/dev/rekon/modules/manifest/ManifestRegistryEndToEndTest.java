package dev.rekon.modules.manifest;

import static dev.rekon.modules.manifest.ManifestFixtures.bytes;
import static dev.rekon.modules.manifest.ManifestFixtures.signed;
import static dev.rekon.modules.manifest.ManifestFixtures.template;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.core.RefusedException;
import dev.rekon.core.TransientFailureException;
import dev.rekon.modules.manifest.ModuleManifest.Provenance;
import dev.rekon.modules.release.ModuleTemplateView;
import dev.rekon.registry.Credential;
import dev.rekon.registry.RegistryClient;
import dev.rekon.testing.LocalRegistry;
import dev.rekon.testing.SharedFiles;

/**
 * Manifests read from a real docker-registry: OCM component versions with a raw-manifest local blob, OCI
 * artifacts, a registry blob URL as a community link, a registry behind basic auth, one tampered on disk.
 */
class ManifestRegistryEndToEndTest {

    static final String NAME = "registry-manifests";
    static LocalRegistry registry;
    static LocalRegistry guarded;
    static OcmRegistry push;

    @BeforeAll
    static void start() {
        registry = LocalRegistry.start(LocalRegistry.Options.plain(NAME));
        guarded = LocalRegistry.start(LocalRegistry.Options.plain(NAME + "-auth").withBasicAuth("modules", "s3cret"));
        push = new OcmRegistry(registry.hostPort(), null);
    }

    @AfterAll
    static void stop() {
        registry.stop();
        guarded.stop();
    }

    static ManifestReader reader(boolean required, Optional<Credential> credential) {
        return reader(required, credential, new RegistryClient(Set.of(), Duration.ofSeconds(10)));
    }

    static ManifestReader reader(boolean required, Optional<Credential> credential, RegistryClient client) {
        RegistryManifestGateway gateway = new RegistryManifestGateway(client, (template, host) -> credential, Set.of(),
                Duration.ofSeconds(10));
        return new ManifestReader(gateway, ManifestReaderTest.VERIFIER, required);
    }

    static ModuleManifest read(ObjectNode template, boolean required) {
        return reader(required, Optional.empty()).fetch(ModuleTemplateView.of(template));
    }

    /** A manifest unique to the test, so that tampering with its blob touches no other test's. */
    static byte[] uniqueYaml() {
        return bytes(ManifestFixtures.MODULE_YAML + "# " + UUID.randomUUID() + "\n");
    }

    static ObjectNode component(String version, String hostPort, byte[] blob) {
        ObjectNode d = ManifestFixtures.localBlobDescriptor(version, hostPort, blob);
        ((ObjectNode) d.get("component")).put("name", "kyma-project.io/module/kpack-" + UUID.randomUUID().toString()
                .substring(0, 8));
        return d;
    }

    @Test
    void aSignedLocalBlobTarGzIsReadFromTheComponentRepository() throws Exception {
        byte[] blob = ManifestFixtures.gzip(ManifestFixtures.tar(Map.of("manifests/a.yaml", ManifestFixtures.MODULE_YAML)));
        ObjectNode d = signed(component("0.4.1", registry.hostPort(), blob));
        push.pushComponent(d, blob);
        ModuleManifest m = read(template("kpack-0.4.1", "0.4.1", d), true);
        assertEquals(Provenance.SIGNED, m.provenance());
        assertEquals(List.of("kpack", "controller", "config"),
                m.objects().stream().map(o -> o.path("metadata").path("name").asText()).toList());
        assertEquals(ManifestFixtures.digest(blob), m.digest());
    }

    @Test
    void readsNamedByDigestAreKeptSoThatReadingAgainSendsNoRequest() throws Exception {
        byte[] blob = uniqueYaml();
        ObjectNode d = signed(component("0.4.1", registry.hostPort(), blob));
        push.pushComponent(d, blob);
        String repo = "kpack/raw-manifest-" + UUID.randomUUID().toString().substring(0, 8);
        String digest = push.pushArtifact(repo, "0.4.1", blob, "application/x-yaml");
        ObjectNode artifact = signed(ManifestFixtures.artifactDescriptor("0.4.1", registry.hostPort() + "/" + repo
                + ":0.4.1", digest));
        AtomicInteger requests = new AtomicInteger();
        ManifestReader reader = reader(true, Optional.empty(), new RegistryClient(Set.of(), Duration.ofSeconds(10),
                (host, method, status) -> requests.incrementAndGet()));
        for (ObjectNode t : List.of(template("kpack-0.4.1", "0.4.1", d), template("kpack-0.4.1", "0.4.1", artifact))) {
            reader.fetch(ModuleTemplateView.of(t));
            int first = requests.get();
            assertTrue(first > 0);
            assertEquals(Provenance.SIGNED, reader.fetch(ModuleTemplateView.of(t)).provenance());
            assertEquals(first, requests.get());
            requests.set(0);
        }
    }

    @Test
    void aBlobTamperedWithInTheRegistryIsRefused() throws Exception {
        byte[] blob = uniqueYaml();
        ObjectNode d = signed(component("0.4.3", registry.hostPort(), blob));
        push.pushComponent(d, blob);
        ObjectNode t = template("kpack-0.4.1", "0.4.1", d);
        assertEquals(Provenance.SIGNED, read(t, true).provenance());
        String hex = ManifestReader.sha256(blob);
        Path data = SharedFiles.projectDir().resolve("target/" + NAME + "/storage/docker/registry/v2/blobs/sha256/"
                + hex.substring(0, 2) + "/" + hex + "/data");
        Files.writeString(data, new String(blob, StandardCharsets.UTF_8).replace("level: info", "level: warn"));
        for (boolean required : new boolean[] { true, false }) {
            RefusedException e = assertThrows(RefusedException.class, () -> read(t, required));
            assertTrue(e.getMessage().contains("does not match its digest: it was tampered with"), e.getMessage());
        }
    }

    @Test
    void aSignedArtifactIsReadAtItsSignedDigestEvenAfterItsTagMoved() throws Exception {
        String repo = "kpack/raw-manifest-" + UUID.randomUUID().toString().substring(0, 8);
        String digest = push.pushArtifact(repo, "0.4.1", bytes(ManifestFixtures.MODULE_YAML), "application/x-yaml");
        ObjectNode d = signed(ManifestFixtures.artifactDescriptor("0.4.1", registry.hostPort() + "/" + repo + ":0.4.1",
                digest));
        push.pushArtifact(repo, "0.4.1", bytes("apiVersion: v1\nkind: Namespace\nmetadata: {name: moved}\n"),
                "application/x-yaml");
        ModuleManifest m = read(template("kpack-0.4.1", "0.4.1", d), true);
        assertEquals(Provenance.SIGNED, m.provenance());
        assertEquals(3, m.objects().size());
        assertTrue(m.source().startsWith("ociArtifact " + registry.hostPort() + "/" + repo + ":0.4.1@" + digest),
                m.source());
    }

    @Test
    void anUnsignedArtifactFollowsItsTagWhenSignaturesAreNotRequired() throws Exception {
        String repo = "kpack/raw-manifest-" + UUID.randomUUID().toString().substring(0, 8);
        push.pushArtifact(repo, "0.4.1", bytes(ManifestFixtures.MODULE_YAML), "application/x-yaml");
        ObjectNode d = ManifestFixtures.artifactDescriptor("0.4.1", registry.hostPort() + "/" + repo + ":0.4.1", "x");
        ManifestFixtures.rawManifest(d).remove("digest");
        ObjectNode t = template("kpack-0.4.1", "0.4.1", d);
        assertEquals(Provenance.UNSIGNED, read(t, false).provenance());
        assertTrue(assertThrows(RefusedException.class, () -> read(t, true)).getMessage()
                .contains("(SignatureMissing)"));
    }

    @Test
    void aLinkToARegistryBlobIsReadAsLinkAndRefusedUnderRequiredSignatures() throws Exception {
        String repo = "community/kpack";
        byte[] blob = bytes(ManifestFixtures.MODULE_YAML);
        String url = push.blobUrl(repo, push.pushBlob(repo, blob));
        ObjectNode t = ManifestFixtures.withLink(template("kpack-0.4.1", "0.4.1", null), url);
        ModuleManifest m = read(t, false);
        assertEquals(Provenance.LINK, m.provenance());
        assertEquals(3, m.objects().size());
        assertTrue(assertThrows(RefusedException.class, () -> read(t, true)).getMessage()
                .contains("which no signature covers"));
        ObjectNode missing = ManifestFixtures.withLink(template("kpack-0.4.1", "0.4.1", null),
                push.blobUrl(repo, "sha256:" + "0".repeat(64)));
        assertTrue(assertThrows(RefusedException.class, () -> read(missing, false)).getMessage()
                .contains("which answered HTTP 404"));
    }

    @Test
    void aRegistryBehindBasicAuthIsReadWithTheCredentialAndRefusedWithout() throws Exception {
        byte[] blob = uniqueYaml();
        ObjectNode d = signed(component("0.4.1", guarded.hostPort(), blob));
        new OcmRegistry(guarded.hostPort(), "modules:s3cret").pushComponent(d, blob);
        ObjectNode t = template("kpack-0.4.1", "0.4.1", d);
        ModuleManifest m = reader(true, Optional.of(new Credential("modules", "s3cret"))).fetch(ModuleTemplateView.of(t));
        assertEquals(Provenance.SIGNED, m.provenance());
        RefusedException e = assertThrows(RefusedException.class, () -> read(t, true));
        assertTrue(e.getMessage().contains("(RegistryUnauthorized"), e.getMessage());
    }

    @Test
    void anUnreachableRegistryIsTransient() {
        byte[] blob = uniqueYaml();
        ObjectNode t = template("kpack-0.4.1", "0.4.1", component("0.4.1", "127.0.0.1:" + LocalRegistry.freePort(), blob));
        assertThrows(TransientFailureException.class, () -> read(t, false));
    }
}
