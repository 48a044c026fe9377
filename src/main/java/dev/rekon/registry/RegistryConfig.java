package dev.rekon.registry;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import io.micrometer.core.instrument.MeterRegistry;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Registry settings: which non-loopback registries may speak plain HTTP, and the request timeout. */
@ConfigMapping(prefix = "rekon.registry")
public interface RegistryConfig {

    /** Every HTTP request to a registry, by registry host, method and status ({@code rekon_registry_requests_total}). */
    String REQUESTS = "rekon.registry.requests";

    /** Hosts ({@code host:port}) that may be reached over plain HTTP; loopback always may. */
    Optional<List<String>> insecure();

    @WithDefault("15s")
    Duration timeout();

    /** Makes one {@link RegistryClient} for the application from this configuration. */
    final class Producer {
        @Produces
        @Singleton
        RegistryClient registryClient(RegistryConfig config, MeterRegistry meters) {
            return new RegistryClient(Set.copyOf(config.insecure().orElse(List.of())), config.timeout(),
                    (host, method, status) -> meters.counter(REQUESTS, "registry", host == null ? "" : host,
                            "method", method, "status", status == 0 ? "connection-failure" : String.valueOf(status))
                            .increment());
        }
    }
}
