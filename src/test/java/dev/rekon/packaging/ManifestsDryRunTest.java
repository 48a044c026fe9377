package dev.rekon.packaging;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import dev.rekon.testing.Kpack;
import dev.rekon.testing.LocalCluster;
import dev.rekon.testing.SharedFiles;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;

/**
 * Every file in {@code knative/} as the real apiserver sees it: each object is server-side applied in dry-run
 * mode, so schemas, names and references are checked and nothing is stored. Knative's kinds need the upstream
 * CRDs of {@code ../shared/crds}; without them those files are skipped, saying so.
 */
class ManifestsDryRunTest {

    @TestFactory
    Stream<DynamicTest> everyManifestPassesServerSideDryRun() {
        KubernetesClient admin = LocalCluster.get().adminClient();
        List<Path> files = Manifests.files();
        assertFalse(files.isEmpty(), "no manifests under " + Manifests.dir());
        return files.stream().map(f -> DynamicTest.dynamicTest(Manifests.relative(f), () -> dryRun(admin, f)));
    }

    private static void dryRun(KubernetesClient admin, Path file) {
        List<HasMetadata> items = Manifests.load(admin, file);
        assertFalse(items.isEmpty(), file + " holds no objects");
        boolean needsKnative = items.stream().anyMatch(i -> Manifests.KNATIVE_GROUPS.contains(Manifests.group(i)));
        Assumptions.assumeTrue(!needsKnative || SharedFiles.crdsDir() != null, Manifests.relative(file)
                + " uses Knative kinds, whose CRDs are only in ../shared/crds, which is absent: skipped");
        for (HasMetadata item : items) {
            String ns = item.getMetadata().getNamespace();
            if (ns != null) {
                Kpack.namespace(admin, ns); // kubectl apply would have created it from an earlier file
            }
            try {
                admin.resource(item).dryRun().serverSideApply();
            } catch (KubernetesClientException e) {
                fail(Manifests.relative(file) + ": " + item.getKind() + " " + item.getMetadata().getName()
                        + " refused by the apiserver: " + e.getMessage());
            }
        }
    }
}
