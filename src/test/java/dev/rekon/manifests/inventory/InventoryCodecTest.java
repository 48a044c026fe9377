package dev.rekon.manifests.inventory;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;

import dev.rekon.core.ObjectRef;

/**
 * The one inventory in both forms it is stored in, byte for byte as earlier versions wrote them, so that what
 * they wrote is read: a module's ConfigMap text, and Flux's {@code {id, v}} entries of a DeclaredState's status.
 */
class InventoryCodecTest {

    static final ObjectRef NS = new ObjectRef("v1", "Namespace", null, "widgets");
    static final ObjectRef CRD = new ObjectRef("apiextensions.k8s.io/v1", "CustomResourceDefinition", null,
            "widgets.e2e.rekon.dev");
    static final ObjectRef DEPLOY = new ObjectRef("apps/v1", "Deployment", "widgets", "controller");
    static final ObjectRef CR = new ObjectRef("e2e.rekon.dev/v1", "Widget", "widgets", "default");

    @Test
    void aModuleInventoryIsTheConfigMapTextEarlierVersionsWrote() {
        String text = "{\"module\":\"widgets\",\"version\":\"0.4.1\",\"channel\":\"regular\","
                + "\"template\":\"kcp/widgets-0.4.1\",\"objects\":[{\"apiVersion\":\"v1\",\"kind\":\"Namespace\","
                + "\"name\":\"widgets\",\"created\":true},{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\","
                + "\"name\":\"controller\",\"namespace\":\"widgets\",\"created\":true},{\"apiVersion\":"
                + "\"e2e.rekon.dev/v1\",\"kind\":\"Widget\",\"name\":\"default\",\"namespace\":\"widgets\","
                + "\"created\":true,\"defaultCr\":true}]}";
        Inventory inventory = new Inventory("widgets", "0.4.1", "regular", "kcp/widgets-0.4.1", List.of(
                new Inventory.Entry(NS, true, false), new Inventory.Entry(DEPLOY, true, false),
                new Inventory.Entry(CR, true, true)), "12");
        assertEquals(text, InventoryCodec.write(inventory));
        assertEquals(inventory, InventoryCodec.read(text, "12"));
        String firstInstall = "{\"module\":\"widgets\",\"version\":null,\"channel\":null,\"template\":null,"
                + "\"objects\":[]}";
        assertEquals(firstInstall, InventoryCodec.write(Inventory.empty("widgets")));
        assertEquals(Inventory.empty("widgets"), InventoryCodec.read(firstInstall, null));
    }

    @Test
    void aDeclaredStateInventoryIsFluxEntriesOfItsStatus() throws Exception {
        List<Inventory.Entry> entries = Inventory.of(List.of(NS, CRD, DEPLOY)).objects();
        String json = "[{\"id\":\"_widgets__Namespace\",\"v\":\"v1\"},{\"id\":"
                + "\"_widgets.e2e.rekon.dev_apiextensions.k8s.io_CustomResourceDefinition\",\"v\":\"v1\"},"
                + "{\"id\":\"widgets_controller_apps_Deployment\",\"v\":\"v1\"}]";
        assertEquals(json, InventoryCodec.ids(entries).toString());
        assertEquals(entries, InventoryCodec.fromIds(new ObjectMapper().readTree(json)));
        assertEquals(List.of(DEPLOY), InventoryCodec.fromIds(new ObjectMapper().readTree(
                "[{\"id\":\"not-an-id\"},{\"id\":\"widgets_controller_apps_Deployment\",\"v\":\"v1\"}]")).stream()
                .map(Inventory.Entry::ref).toList(), "an entry that names no object is skipped");
    }
}
