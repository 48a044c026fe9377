package dev.rekon.webhooks;

import java.util.Map;
import java.util.Set;

import io.quarkus.test.junit.QuarkusTestProfile;

/**
 * Replaces the routers (registry pushes and git pushes) and the digest resolver with recording ones; secrets are
 * the %test ones. The real routers are left out of this application, so that these tests see exactly what the webhook layer hands on.
 * Nothing here talks to a cluster, so the control plane the other Quarkus tests share is not started for it.
 */
public class WebhookTestProfile implements QuarkusTestProfile {

    @Override
    public Set<Class<?>> getEnabledAlternatives() {
        return Set.of(RecordingRouter.class, KnownDigests.class, dev.rekon.webhooks.git.RecordingGitPushRouter.class);
    }

    @Override
    public boolean disableGlobalTestResources() {
        return true;
    }

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("quarkus.http.test-port", String.valueOf(dev.rekon.testing.RekonTestResource.port()),
                "quarkus.arc.exclude-types", "dev.rekon.rollouts.RolloutPushRouter,"
                + "dev.rekon.buildpacks.BuildpackPushRouter,dev.rekon.modules.ModulePushRouter");
    }
}
