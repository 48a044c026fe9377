package dev.rekon.testing;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

/**
 * Runs the application as the ServiceAccount from {@code knative/rbac/}, bound only in the namespaces
 * given as init argument {@code namespaces} (comma-separated), which also become {@code rekon.namespaces}.
 * Whatever the functions need beyond those manifests fails with 403 here.
 */
public class ServiceAccountTestResource implements QuarkusTestResourceLifecycleManager {

    private List<String> namespaces = List.of();

    /** A test profile that runs the application as the ServiceAccount, bound in the given namespaces only. */
    public abstract static class Profile implements io.quarkus.test.junit.QuarkusTestProfile {
        private final String namespaces;

        protected Profile(String namespaces) {
            this.namespaces = namespaces;
        }

        @Override
        public List<TestResourceEntry> testResources() {
            return List.of(new TestResourceEntry(ServiceAccountTestResource.class, Map.of("namespaces", namespaces)));
        }

        @Override
        public boolean disableGlobalTestResources() {
            return true;
        }
    }

    @Override
    public void init(Map<String, String> initArgs) {
        namespaces = List.of(initArgs.getOrDefault("namespaces", "").split(","));
    }

    @Override
    public Map<String, String> start() {
        LocalCluster cluster = LocalCluster.get();
        KubernetesClient admin = cluster.adminClient();
        Path rbac = SharedFiles.projectDir().resolve("knative/rbac");
        for (HasMetadata item : load(admin, rbac)) {
            if ("RoleBinding".equals(item.getKind())) { // namespace-binding.yaml: one copy per allowed namespace
                for (String ns : namespaces) {
                    Kpack.namespace(admin, ns);
                    item.getMetadata().setNamespace(ns);
                    admin.resource(item).createOr(r -> r.update());
                }
            } else {
                admin.resource(item).createOr(r -> r.update());
            }
        }
        cluster.useAs("rekon", "rekon");
        Map<String, String> config = new HashMap<>();
        config.put("quarkus.http.test-port", String.valueOf(RekonTestResource.port()));
        config.put("rekon.namespaces", String.join(",", namespaces));
        return config;
    }

    static List<HasMetadata> load(KubernetesClient client, Path dir) {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> f.toString().endsWith(".yaml")).sorted().flatMap(f -> {
                try (InputStream in = Files.newInputStream(f)) {
                    return client.load(in).items().stream();
                } catch (IOException e) {
                    throw new IllegalStateException("cannot read " + f, e);
                }
            }).toList();
        } catch (IOException e) {
            throw new IllegalStateException("cannot list " + dir, e);
        }
    }

    @Override
    public void stop() {
        LocalRegistry.stopShared();
        LocalCluster.stopShared();
    }
}
