package dev.rekon.testing;

import java.util.HashMap;
import java.util.Map;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

/**
 * Points the application under test at the real local cluster and registry, shared by every test class that runs
 * on the same application start, and stopped with it. Quarkus loads the test classes anew for each application
 * start (another profile, other test resources), so each start has its own cluster, registry and port; the
 * application listens on a free port, so that several test runs can share a machine, and the registry notifies it.
 */
public class RekonTestResource implements QuarkusTestResourceLifecycleManager {

    private static int port;

    public static synchronized int port() {
        if (port == 0) {
            port = LocalRegistry.freePort();
        }
        return port;
    }

    @Override
    public Map<String, String> start() {
        LocalCluster.get().useAsAdmin();
        Map<String, String> config = new HashMap<>();
        config.put("quarkus.http.test-port", String.valueOf(port()));
        LocalRegistry.get();
        return config;
    }

    @Override
    public void stop() {
        LocalRegistry.stopShared();
        LocalCluster.stopShared();
    }
}
