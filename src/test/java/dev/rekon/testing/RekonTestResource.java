package dev.rekon.testing;

import java.util.HashMap;
import java.util.Map;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

/**
 * Points the application under test at the real local cluster and registry, started once per test run
 * and shared by every Quarkus test. The application listens on one free port for the whole run, so
 * that several test runs can share a machine and the registry's notifications always find it.
 */
public class RekonTestResource implements QuarkusTestResourceLifecycleManager {

    private static int port;

    public static synchronized int port() {
        if (port == 0) {
            port = LocalRegistry.freePort();
            System.setProperty("rekon.test.webhook-url", "http://127.0.0.1:" + port + "/webhooks/distribution");
        }
        return port;
    }

    @Override
    public Map<String, String> start() {
        Map<String, String> config = new HashMap<>(LocalCluster.get().quarkusConfig());
        config.put("quarkus.http.test-port", String.valueOf(port()));
        LocalRegistry.get();
        config.put("rekon.webhooks.distribution.token", LocalRegistry.NOTIFICATION_TOKEN);
        return config;
    }

    @Override
    public void stop() {
        // Shared for the whole run; stopped by the JVM shutdown hooks of LocalCluster and LocalRegistry.
    }
}
