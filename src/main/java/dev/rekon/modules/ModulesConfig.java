package dev.rekon.modules;

import java.util.Optional;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Configuration of the module functions, under {@code rekon.modules}. */
@ConfigMapping(prefix = "rekon.modules")
public interface ModulesConfig {

    /** Apply only releases whose signature verifies against {@link #publicKeys()}. */
    @WithDefault("false")
    boolean requireSignature();

    /** Comma-separated PEM files (or directories of *.pem) holding the trusted RSA public keys. */
    Optional<String> publicKeys();

    /** Optional UTC window for version changes, e.g. {@code Sat,Sun 02:00-06:00}. */
    Optional<String> maintenanceWindow();
}
