package dev.rekon.cluster;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Readiness;

/**
 * Shows in {@code /q/health/ready} which optional kinds the cluster serves. Always up: a missing optional kind
 * only skips its area, so it must not take Rekon out of service.
 */
@Readiness
@ApplicationScoped
public class InstalledKindsCheck implements HealthCheck {

    @Inject
    InstalledKinds kinds;

    @Override
    public HealthCheckResponse call() {
        HealthCheckResponseBuilder b = HealthCheckResponse.named("optional-kinds").up();
        kinds.states().forEach(b::withData);
        return b.build();
    }
}
