package dev.rekon.webhooks;

import java.util.Set;

import io.quarkus.test.junit.QuarkusTestProfile;

/** Replaces the routers and the digest resolver with recording ones; secrets are the %test ones. */
public class WebhookTestProfile implements QuarkusTestProfile {

    @Override
    public Set<Class<?>> getEnabledAlternatives() {
        return Set.of(RecordingRouter.class, KnownDigests.class);
    }
}
