package dev.rekon.modules.lifecycle;

import static org.hamcrest.Matchers.allOf;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.rekon.testing.RekonTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * A module version whose manifest declares an object of a kind the apiserver does not serve (and that none of its
 * own CRDs declares) is refused whole before any write, as a DeclaredState's revision is: no 5xx, nothing of it
 * applied, the module in Error naming the object; an installed version keeps running.
 */
@QuarkusTest
@QuarkusTestResource(value = RekonTestResource.class, restrictToAnnotatedClass = false)
class ModuleUnservedKindEndToEndTest extends LifecycleFixtures {

    static final String THING = "apiVersion: nope.example/v1\nkind: Thing\nmetadata: {name: t1, namespace: NS}\n";

    @Test
    void aVersionWithAnUnservedKindIsRefusedBeforeAnyWriteAndTheInstalledOneKept() throws Exception {
        extraFiles.put("0.4.2", Map.of("25-thing.yaml", THING.replace("NS", target)));
        publish("0.4.2", false);
        channel("0.4.2");
        kyma(module);
        kymaEvent().statusCode(200).body("outcome", equalTo("rejected")).body("reason", equalTo("KindNotServed"))
                .body("message", allOf(containsString("Thing"), containsString("nope.example/v1"),
                        containsString("t1")));
        assertNull(object("v1", "Namespace", null, target), "nothing of the version was applied");
        assertEquals("Error", moduleStatus().get("state"));

        publish("0.4.3", false);
        channel("0.4.3");
        kymaEvent().body("reason", equalTo("ModuleInstalled"));
        extraFiles.put("0.4.4", Map.of("25-thing.yaml", THING.replace("NS", target)));
        publish("0.4.4", false);
        channel("0.4.4");
        releaseMetaEvent().statusCode(200).body("outcome", equalTo("rejected"))
                .body("reason", equalTo("KindNotServed"));
        assertEquals("0.4.3", moduleStatus().get("version"), "the installed version is kept");
        assertNotNull(object("apps/v1", "Deployment", target, "controller"));
    }

    @SuppressWarnings("unchecked")
    Map<String, Object> moduleStatus() {
        Map<String, Object> status = kymaStatus();
        return status == null ? null : ((List<Map<String, Object>>) status.get("modules")).stream()
                .filter(m -> module.equals(m.get("name"))).findFirst().orElse(null);
    }
}
