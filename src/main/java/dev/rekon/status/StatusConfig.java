package dev.rekon.status;

import java.util.Optional;

import io.smallrye.config.ConfigMapping;

/** Settings of the status page and {@code GET /status}. */
@ConfigMapping(prefix = "rekon.status")
public interface StatusConfig {

    /** When set, {@code GET /status} and {@code GET /} answer only requests with {@code Authorization: Bearer <token>}. */
    Optional<String> token();
}
