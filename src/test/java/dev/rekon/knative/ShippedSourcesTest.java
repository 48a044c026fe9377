package dev.rekon.knative;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.rekon.testing.LocalCluster;
import dev.rekon.testing.SharedFiles;
import dev.rekon.testing.knative.AccessCheck;
import dev.rekon.testing.knative.KindGuess;
import dev.rekon.testing.knative.SourceSpec;
import io.fabric8.kubernetes.api.model.APIResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * The shipped sources as Knative's controller and adapter see them, with {@code knative/rbac} applied: every
 * resource Knative would watch (its guess from the kind, or the resource an adapter Deployment names) is served by
 * the cluster under that very name, and Knative's access check for the source's ServiceAccount passes. Before the
 * ImageDeploy source was split off, rekon-rollouts failed both ("imagedeploies").
 */
class ShippedSourcesTest {

    private final KubernetesClient admin = LocalCluster.get().adminClient();

    @Test
    void knativeGuessesAsApimachineryDoes() {
        assertEquals("imagedeploies", KindGuess.resource("ImageDeploy"));
        assertEquals("images", KindGuess.resource("Image"));
        assertEquals("clusterbuildpacks", KindGuess.resource("ClusterBuildpack"));
        assertEquals("endpoints", KindGuess.resource("Endpoints"));
        assertEquals("classes", KindGuess.resource("Class"));
    }

    @Test
    void everyWatchedResourceIsServedAndTheAccessCheckPasses() {
        dev.rekon.testing.knative.KnativeLoop.applyRbac(admin);
        admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("kn-shipped")
                .withLabels(Map.of("rekon.dev/watched", "true")).endMetadata().build()).createOr(n -> n.update());
        var project = SharedFiles.projectDir();
        List<SourceSpec> sources = SourceSpec.load(admin, dev.rekon.testing.knative.KnativeLoop.SOURCE_FILES.stream()
                .map(project::resolve).toArray(java.nio.file.Path[]::new));
        assertTrue(sources.size() >= 8, "sources: " + sources.stream().map(SourceSpec::name).toList());
        for (SourceSpec source : sources) {
            assertFalse(source.resources().isEmpty(), source.name());
            for (SourceSpec.Watched w : source.resources()) {
                String gv = w.group().isEmpty() ? w.version() : w.group() + "/" + w.version();
                var list = admin.getApiResources(gv);
                List<String> served = list == null ? List.of()
                        : list.getResources().stream().map(APIResource::getName).toList();
                assertTrue(served.contains(w.resource()), source.name() + " watches " + w.resource() + " of " + gv
                        + ", which the cluster does not serve (it serves " + served + ")");
            }
            assertEquals(List.of(), AccessCheck.missing(admin, source), source.name() + ": Knative's access check");
        }
    }
}
