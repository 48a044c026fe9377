package dev.rekon.modules.lifecycle;

import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;

import dev.rekon.core.ObjectRef;
import dev.rekon.manifests.inventory.Inventory;
import dev.rekon.manifests.inventory.InventoryCodec;
import dev.rekon.manifests.ManifestObjects;
import dev.rekon.modules.lifecycle.plan.ModuleObjects;
import dev.rekon.testing.RekonTestResource;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * A process killed mid-install, as the cluster shows it afterwards: the inventory written ahead names every object
 * of the release, only the first stages were applied. The next event completes the install; an uninstall then
 * leaves no object with the module's label, because every object was recorded before it was created.
 */
@QuarkusTest
@QuarkusTestResource(value = RekonTestResource.class, restrictToAnnotatedClass = false)
class InterruptedInstallEndToEndTest extends LifecycleFixtures {

    @Test
    void anInstallKilledAfterItsCrdStageConvergesAndUninstallsCompletely() throws Exception {
        publish("0.4.1", false);
        channel("0.4.1");
        kyma(module);
        List<ObjectNode> objects = new ArrayList<>();
        for (String yaml : files("0.4.1").values()) {
            for (String doc : yaml.split("(?m)^---$")) {
                objects.add(ModuleObjects.labelled((ObjectNode) new YAMLMapper().readTree(doc), module));
            }
        }
        List<Inventory.Entry> entries = new ArrayList<>();
        for (ObjectNode o : objects) {
            ObjectRef ref = ManifestObjects.ref(o);
            entries.add(new Inventory.Entry(ref, true, false));
        }
        entries.add(new Inventory.Entry(new ObjectRef(group + "/v1", "Widget", target, "default"), true, true));
        admin.configMaps().inNamespace(kcp).resource(new ConfigMapBuilder().withNewMetadata()
                .withName("rekon-module-default-" + module).addToLabels(Map.of("rekon.dev/module", module,
                        "rekon.dev/kyma", "default", "app.kubernetes.io/managed-by", "rekon"))
                .endMetadata().addToData(InventoryCodec.KEY, InventoryCodec.write(
                        new Inventory(module, null, null, null, entries, null))).build()).create();
        for (ObjectNode o : objects.subList(0, 2)) { // the Namespace and the CRD: the process died after them
            admin.resource(Serialization.unmarshal(o.toString(), GenericKubernetesResource.class)).create();
        }

        kymaEvent().body("outcome", equalTo("applied")).body("reason", equalTo("ModuleInstalled"));
        assertNotNull(object("apps/v1", "Deployment", target, "controller"));
        assertNotNull(object(group + "/v1", "Widget", target, "default"));

        kyma();
        kymaEvent().body("reason", equalTo("ModuleUninstalled"));
        for (String[] kind : new String[][] { { "apps/v1", "Deployment" }, { "v1", "ServiceAccount" },
                { "rbac.authorization.k8s.io/v1", "Role" }, { "v1", "ConfigMap" },
                { "apiextensions.k8s.io/v1", "CustomResourceDefinition" } }) {
            assertEquals(List.of(), labelled(kind[0], kind[1]).stream()
                    .filter(r -> r.getMetadata().getDeletionTimestamp() == null).toList(), kind[1]);
        }
        assertNull(admin.configMaps().inNamespace(kcp).withName("rekon-module-default-" + module).get(),
                "the inventory goes last");
    }
}
