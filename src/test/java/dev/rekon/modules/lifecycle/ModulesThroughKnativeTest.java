package dev.rekon.modules.lifecycle;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.rekon.testing.Await;
import dev.rekon.testing.LocalCluster;
import dev.rekon.testing.RekonTestResource;
import dev.rekon.testing.knative.KnativeLoop;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Kyma modules driven by Knative's own ApiServerSource adapter from the shipped {@code rekon-modules} source and
 * Triggers: a Kyma listing a module installs it, and a new version on the ModuleReleaseMeta's channel reaches the
 * Kyma and upgrades it, in Resource and in Reference mode; ModuleTemplate events reach the modules function.
 */
@QuarkusTest
@QuarkusTestResource(value = RekonTestResource.class, restrictToAnnotatedClass = false)
class ModulesThroughKnativeTest extends LifecycleFixtures {

    private KnativeLoop loop;

    @AfterEach
    void stop() {
        if (loop != null) {
            loop.close();
        }
    }

    @Test
    void resourceMode() throws Exception {
        installThenUpgrade("Resource");
    }

    @Test
    void referenceMode() throws Exception {
        installThenUpgrade("Reference");
    }

    private void installThenUpgrade(String mode) throws Exception {
        admin.namespaces().withName(kcp).edit(n -> {
            n.getMetadata().setLabels(Map.of("rekon.dev/watched", "true"));
            return n;
        });
        loop = KnativeLoop.start(LocalCluster.get(), RekonTestResource.port(), "modules-" + mode);
        loop.start(loop.source("rekon-modules").inMode(mode));

        publish("0.4.1", false);
        publish("1.0.0", false);
        channel("0.4.1");
        kyma(module);
        Await.until("the module installed at 0.4.1", Duration.ofSeconds(40), () -> "0.4.1".equals(version()));

        channel("1.0.0");
        Await.until("the new channel version reached the Kyma", Duration.ofSeconds(40), () -> "1.0.0".equals(version()));
        loop.awaitDelivered("ModuleReleaseMeta", module);
        loop.awaitDelivered("ModuleTemplate", module + "-1.0.0");
        loop.assertAllDeliveredOnce();
    }

    @SuppressWarnings("unchecked")
    private String version() {
        Map<String, Object> status = kymaStatus();
        if (status == null) {
            return null;
        }
        for (Map<String, Object> m : (List<Map<String, Object>>) status.getOrDefault("modules", List.of())) {
            if (module.equals(m.get("name"))) {
                return (String) m.get("version");
            }
        }
        return null;
    }
}
