package dev.rekon.webhooks;

import java.util.List;
import java.util.Map;

import dev.rekon.testing.LocalCluster;
import dev.rekon.testing.RekonTestResource;
import dev.rekon.testing.SharedFiles;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.quarkus.test.junit.QuarkusTestProfile;

/**
 * Runs the application against a cluster of its own that serves only Rekon's ImageDeploy kind: no kpack kinds
 * (neither Image nor the RFC 0009 Buildpack kinds), no Kyma, no kpush.
 */
public class WithoutOptionalKindsResource implements QuarkusTestResourceLifecycleManager {

    static LocalCluster cluster;

    /** The profile that uses this resource instead of the shared cluster. */
    public static class Profile implements QuarkusTestProfile {
        @Override
        public List<TestResourceEntry> testResources() {
            return List.of(new TestResourceEntry(WithoutOptionalKindsResource.class));
        }

        @Override
        public boolean disableGlobalTestResources() {
            return true;
        }
    }

    @Override
    public Map<String, String> start() {
        cluster = LocalCluster.startWithOwnCrdsOnly(SharedFiles.projectDir().resolve("target/cluster-without-optional-kinds"));
        cluster.useAsAdmin();
        return Map.of("quarkus.http.test-port", String.valueOf(RekonTestResource.port()));
    }

    @Override
    public void stop() {
        if (cluster != null) {
            cluster.stop();
        }
    }

}
