package dev.rekon.testing;

import java.util.HashMap;
import java.util.Map;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

/**
 * Points the application under test at the real local cluster and registry, started once per test run
 * and shared by every Quarkus test.
 */
public class RekonTestResource implements QuarkusTestResourceLifecycleManager {

    @Override
    public Map<String, String> start() {
        Map<String, String> config = new HashMap<>(LocalCluster.get().quarkusConfig());
        LocalRegistry registry = LocalRegistry.get();
        config.put("rekon.test.registry", registry.hostPort());
        config.put("rekon.webhooks.distribution.token", LocalRegistry.NOTIFICATION_TOKEN);
        return config;
    }

    @Override
    public void stop() {
        // Shared for the whole run; stopped by the JVM shutdown hooks of LocalCluster and LocalRegistry.
    }
}
