package dev.rekon.modules.publish;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.PrivateKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Map;

import dev.rekon.modules.ocm.PublicKeys;
import dev.rekon.modules.ocm.TestSigning;
import dev.rekon.testing.LocalRegistry;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

/**
 * Publication on, from the shared local registry's {@value #BASE} components, into {@value #NAMESPACE}, with
 * signatures required: a signing key generated for the run, its public key trusted; channel regular follows fast
 * after a soak of 24 hours. The private key goes to a
 * file named by a system property, since the test runs in another class loader.
 */
public class PublicationResource implements QuarkusTestResourceLifecycleManager {

    static final String BASE = "component-descriptors/e2e.rekon.dev/publish";
    static final String NAMESPACE = "kcp-publish";
    static final String KEY_DIR_PROPERTY = "rekon.test.publish-key-dir";

    @Override
    public Map<String, String> start() {
        try {
            Path dir = Files.createTempDirectory("rekon-publish-keys");
            KeyPair pair = TestSigning.generate();
            Files.writeString(dir.resolve("trusted.pem"), PublicKeys.pem(pair.getPublic()));
            Files.write(dir.resolve("private.der"), pair.getPrivate().getEncoded());
            System.setProperty(KEY_DIR_PROPERTY, dir.toString());
            return Map.of("rekon.modules.require-signature", "true",
                    "rekon.modules.public-keys", dir.resolve("trusted.pem").toString(),
                    "rekon.modules.publish.repositories", LocalRegistry.get().hostPort() + "/" + BASE,
                    "rekon.modules.publish.namespace", NAMESPACE,
                    "rekon.modules.publish.auto-channels", "fast",
                    "rekon.modules.publish.promotions", "regular=fast+24h");
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    static PrivateKey privateKey() {
        try {
            byte[] der = Files.readAllBytes(Path.of(System.getProperty(KEY_DIR_PROPERTY), "private.der"));
            return KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(der));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void stop() {
        System.clearProperty(KEY_DIR_PROPERTY);
    }
}
