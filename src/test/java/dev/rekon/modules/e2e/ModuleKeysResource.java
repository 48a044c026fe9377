package dev.rekon.modules.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.util.Map;

import dev.rekon.modules.ocm.PublicKeys;
import dev.rekon.modules.ocm.TestSigning;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

/**
 * Generates the module signing key for the end-to-end tests, trusts its public key and turns signatures on.
 * The private key goes to a file named by a system property, since the test runs in another class loader.
 */
public class ModuleKeysResource implements QuarkusTestResourceLifecycleManager {

    static final String KEY_DIR_PROPERTY = "rekon.test.module-key-dir";

    @Override
    public Map<String, String> start() {
        try {
            Path dir = Files.createTempDirectory("rekon-module-keys");
            KeyPair pair = TestSigning.generate();
            Files.writeString(dir.resolve("trusted.pem"), PublicKeys.pem(pair.getPublic()));
            Files.write(dir.resolve("private.der"), pair.getPrivate().getEncoded());
            System.setProperty(KEY_DIR_PROPERTY, dir.toString());
            return Map.of("rekon.modules.require-signature", "true",
                    "rekon.modules.public-keys", dir.resolve("trusted.pem").toString());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    static java.security.PrivateKey privateKey() {
        try {
            byte[] der = Files.readAllBytes(Path.of(System.getProperty(KEY_DIR_PROPERTY), "private.der"));
            return java.security.KeyFactory.getInstance("RSA")
                    .generatePrivate(new java.security.spec.PKCS8EncodedKeySpec(der));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }


    @Override
    public void stop() {
        System.clearProperty(KEY_DIR_PROPERTY);
    }
}
