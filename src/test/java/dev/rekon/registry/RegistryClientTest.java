package dev.rekon.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.rekon.core.RefusedException;
import dev.rekon.core.TransientFailureException;
import dev.rekon.modules.manifest.OcmRegistry;
import dev.rekon.testing.BuildpackageImages;
import dev.rekon.testing.LocalRegistry;
import dev.rekon.testing.TokenAuthServer;
import dev.rekon.testing.BuildpackageImages.Buildpack;

/** Against real docker-registry processes: one open, one behind htpasswd. */
class RegistryClientTest {

    static final String USER = "rekon";
    static final String PASSWORD = "s3cret-pull";
    static LocalRegistry open;
    static LocalRegistry locked;
    static final Optional<Credential> CREDS = Optional.of(new Credential(USER, PASSWORD));
    final RegistryClient client = new RegistryClient(Set.of(), Duration.ofSeconds(5));

    @TempDir
    static Path work;

    @BeforeAll
    static void start() throws Exception {
        open = LocalRegistry.start(LocalRegistry.Options.plain("registry-client-open"));
        locked = LocalRegistry.start(LocalRegistry.Options.plain("registry-client-locked").withBasicAuth(USER, PASSWORD));
    }

    @AfterAll
    static void stop() {
        open.stop();
        locked.stop();
    }

    @Test
    void answersABearerTokenChallengeWithCredentialsFromTheTokenService() throws Exception {
        try (TokenAuthServer tokens = TokenAuthServer.start(work.resolve("tokens"), USER, PASSWORD)) {
            LocalRegistry bearer = LocalRegistry.start(LocalRegistry.Options.plain("registry-client-bearer")
                    .withTokenAuth(tokens));
            try {
                String ref = bearer.hostPort() + "/team/bp:1";
                String digest = new BuildpackageImages(work).push(ref, USER + ":" + PASSWORD, "acme/tok", "1.0.0", "t",
                        Buildpack.of("acme/tok@1.0.0"));
                assertEquals(digest, client.readDigest(ImageReference.parse(ref), CREDS));
                RefusedException refused = assertThrows(RefusedException.class,
                        () -> client.readDigest(ImageReference.parse(ref), Optional.of(new Credential(USER, "wrong"))));
                assertEquals("RegistryUnauthorized", refused.reason());
            } finally {
                bearer.stop();
            }
        }
    }

    @Test
    void listsTagsAndTheCatalogAcrossPagesBehindBasicAuth() throws Exception {
        OcmRegistry push = new OcmRegistry(locked.hostPort(), USER + ":" + PASSWORD);
        for (String tag : List.of("1.0.0", "1.1.0", "2.0.0", "latest", "0.9.0")) {
            push.pushArtifact("listing/tags", tag, tag.getBytes(StandardCharsets.UTF_8), "text/plain");
        }
        push.pushArtifact("listing/other", "1", new byte[] {1}, "text/plain");
        ImageReference repo = ImageReference.parse(locked.hostPort() + "/listing/tags");

        assertEquals(Set.of("1.0.0", "1.1.0", "2.0.0", "latest", "0.9.0"), Set.copyOf(client.listTags(repo, CREDS)));
        assertTrue(client.catalog(repo, CREDS).containsAll(List.of("listing/tags", "listing/other")));
        RegistrySession session = new RegistrySession(new RegistryTransport(Set.of(), Duration.ofSeconds(5),
                (h, m, st) -> { }), repo, CREDS);
        List<String> paged = RegistryListing.all(session, "/v2/listing/tags/tags/list?n=2", "tags");
        assertEquals(5, paged.size(), "three pages of two, linked: " + paged);
        assertEquals(Set.copyOf(client.listTags(repo, CREDS)), Set.copyOf(paged));
        assertThrows(RefusedException.class, () -> client.listTags(repo, Optional.empty()));
    }

    @Test
    void readsALinkHeadersNextPage() {
        assertEquals("/v2/_catalog?last=b&n=2", RegistryListing.next("</v2/_catalog?last=b&n=2>; rel=\"next\""));
        assertEquals("/v2/r/tags/list?n=2&last=x", RegistryListing.next(
                "<https://registry.example/v2/r/tags/list?n=2&last=x>; rel=next"));
        assertEquals(null, RegistryListing.next("<https://registry.example/help>; rel=\"help\""));
    }

    @Test
    void readsABuildpackageManifestConfigAndLayers() throws Exception {
        String ref = open.hostPort() + "/bp/java:1";
        String digest = new BuildpackageImages(work).push(ref, null, "acme/java", "1.0.0", "a",
                Buildpack.of("acme/java@1.0.0", "acme/jvm@2.0.0"), Buildpack.of("acme/jvm@2.0.0"));

        RegistryImage image = client.readImage(ImageReference.parse(ref), Optional.empty());

        assertEquals(digest, image.digest());
        assertEquals(2, image.layers().size());
        JsonNode layers = new ObjectMapper().readTree(image.labels().get("io.buildpacks.buildpack.layers"));
        String diffId = layers.path("acme/jvm").path("2.0.0").path("layerDiffID").asText();
        assertTrue(image.layerByDiffId(diffId).orElseThrow().size() > 0);
        assertEquals(digest, client.readDigest(ImageReference.parse(ref), Optional.empty()));
        assertEquals(digest, client.readImage(ImageReference.parse(open.hostPort() + "/bp/java@" + digest), Optional.empty()).digest());
    }

    @Test
    void readsTheLayersItIsAskedForBesideTheConfigBehindBasicAuth() throws Exception {
        String ref = locked.hostPort() + "/bp/early:1";
        String digest = new BuildpackageImages(work).push(ref, USER + ":" + PASSWORD, "acme/java", "1.0.0", "c",
                Buildpack.of("acme/java@1.0.0", "acme/jvm@2.0.0"), Buildpack.of("acme/jvm@2.0.0"));
        RegistryImage plain = client.readImage(ImageReference.parse(ref), CREDS);
        RegistryImage.Layer first = plain.layers().get(0);

        RegistryClient.ImageBlobs read = client.readImageAndBlobs(ImageReference.parse(ref), CREDS,
                l -> l.digest().equals(first.digest()), java.util.concurrent.Executors.newCachedThreadPool());

        assertEquals(digest, read.image().digest());
        assertEquals(plain.layers(), read.image().layers());
        assertEquals(plain.config(), read.image().config());
        assertEquals(java.util.Set.of(first.digest()), read.blobs().keySet());
        assertEquals(first.digest(), RegistryClient.sha256(read.blobs().get(first.digest())));
        assertEquals(first.size(), read.blobs().get(first.digest()).length);
    }

    @Test
    void authenticatesWithHtpasswdCredentials() throws Exception {
        String ref = locked.hostPort() + "/private/node:1";
        String creds = USER + ":" + PASSWORD;
        String digest = new BuildpackageImages(work).push(ref, creds, "acme/node", "1.0.0", "b", Buildpack.of("acme/node@1.0.0"));

        assertEquals(digest, client.readImage(ImageReference.parse(ref), CREDS).digest());
        assertEquals(digest, client.readDigest(ImageReference.parse(ref), CREDS));

        RefusedException denied = assertThrows(RefusedException.class,
                () -> client.readImage(ImageReference.parse(ref), Optional.empty()));
        assertEquals("RegistryUnauthorized", denied.reason());
        assertEquals("registry " + locked.hostPort() + " refused access to private/node; give the resource's service "
                + "account an imagePullSecret with credentials for " + locked.hostPort(), denied.getMessage());
        RefusedException wrong = assertThrows(RefusedException.class, () -> client.readImage(ImageReference.parse(ref),
                Optional.of(new Credential(USER, "wrong"))));
        assertEquals("RegistryUnauthorized", wrong.reason());
    }

    @Test
    void aMissingImageIsPermanent() {
        RefusedException e = assertThrows(RefusedException.class,
                () -> client.readImage(ImageReference.parse(open.hostPort() + "/bp/none:1"), Optional.empty()));

        assertEquals(404, e.code());
        assertEquals("ImageNotFound", e.reason());
        assertTrue(e.getMessage().startsWith("image " + open.hostPort() + "/bp/none:1 not found in its registry"), e.getMessage());
    }

    @Test
    void anUnreachableRegistryIsTransient() throws Exception {
        int port;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            port = s.getLocalPort();
        }
        String ref = "127.0.0.1:" + port + "/bp/java:1";

        TransientFailureException e = assertThrows(TransientFailureException.class,
                () -> client.readDigest(ImageReference.parse(ref), Optional.empty()));

        assertTrue(e.getMessage().contains("unreachable"), e.getMessage());
    }

    @Test
    void plainHttpOnlyForLoopbackAndConfiguredRegistries() {
        RegistryClient c = new RegistryClient(Set.of("registry.lab:5000"), Duration.ofSeconds(1));

        assertTrue(c.mayUsePlainHttp("127.0.0.1:5000"));
        assertTrue(c.mayUsePlainHttp("localhost:5000"));
        assertTrue(c.mayUsePlainHttp("[::1]:5000"));
        assertTrue(c.mayUsePlainHttp("registry.lab:5000"));
        assertFalse(c.mayUsePlainHttp("registry.lab"));
        assertFalse(c.mayUsePlainHttp("ghcr.io"));
    }
}
