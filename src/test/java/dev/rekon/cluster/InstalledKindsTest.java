package dev.rekon.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import dev.rekon.cluster.InstalledKinds.Kind;
import dev.rekon.testing.LocalCluster;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * Discovery on a real apiserver: a kind's first question waits for discovery; later ones are answered at once from
 * what was discovered, and a kind installed since is noticed by a recheck in the background, one at a time.
 */
class InstalledKindsTest {

    static final Kind WIDGET = new Kind("recheck.rekon.dev", "v1", "widgets", "Widget");

    @Test
    void aKindInstalledLaterIsNoticedInTheBackgroundWhileEveryQuestionIsAnsweredAtOnce() {
        KubernetesClient client = LocalCluster.get().adminClient();
        InstalledKinds kinds = new InstalledKinds();
        kinds.client = client;
        long[] now = {1_000_000};
        kinds.clock = () -> now[0];
        List<Runnable> rechecks = new ArrayList<>();
        kinds.rechecks = rechecks::add;
        assertFalse(kinds.installed(WIDGET), "discovered on the first question: not served");

        String crd = WIDGET.crd();
        client.apiextensions().v1().customResourceDefinitions().resource(new CustomResourceDefinitionBuilder()
                .withNewMetadata().withName(crd).endMetadata()
                .withNewSpec().withGroup(WIDGET.group()).withScope("Namespaced")
                .withNewNames().withKind(WIDGET.kind()).withPlural(WIDGET.plural()).endNames()
                .addNewVersion().withName(WIDGET.version()).withServed(true).withStorage(true)
                .withNewSchema().withNewOpenAPIV3Schema().withType("object")
                .withXKubernetesPreserveUnknownFields(true).endOpenAPIV3Schema().endSchema().endVersion()
                .endSpec().build()).createOr(c -> c.update());
        try {
            client.apiextensions().v1().customResourceDefinitions().withName(crd).waitUntilCondition(c -> c != null
                    && c.getStatus() != null && c.getStatus().getConditions() != null && c.getStatus().getConditions()
                            .stream().anyMatch(x -> "Established".equals(x.getType()) && "True".equals(x.getStatus())),
                    60, TimeUnit.SECONDS);
            assertFalse(kinds.installed(WIDGET), "not due to be asked again yet");
            assertTrue(rechecks.isEmpty());

            now[0] += InstalledKinds.RECHECK_MISSING_MILLIS;
            assertFalse(kinds.installed(WIDGET), "due: answered from what was discovered, the recheck queued");
            assertFalse(kinds.installed(WIDGET));
            assertEquals(1, rechecks.size(), "one recheck at a time per group version");
            rechecks.get(0).run();
            assertTrue(kinds.installed(WIDGET), "the recheck found it");
            assertEquals(1, rechecks.size(), "a served kind is asked again only after "
                    + InstalledKinds.RECHECK_PRESENT_MILLIS + " ms");
        } finally {
            client.apiextensions().v1().customResourceDefinitions().withName(crd).delete();
        }
    }
}
