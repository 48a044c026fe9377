package dev.rekon.modules.lifecycle.apply;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;

import dev.rekon.modules.lifecycle.intent.KymaView;
import dev.rekon.modules.lifecycle.intent.ModuleState;
import dev.rekon.modules.lifecycle.intent.ModuleStatus;
import dev.rekon.modules.lifecycle.plan.KymaStatusUpdate;

/**
 * The Kyma status a module's plan writes, byte for byte as earlier versions wrote it: the module's entry in Rekon's
 * shape, the other modules' entries exactly as read, whoever wrote them.
 */
class KymaStatusBodyTest {

    static final ObjectMapper JSON = new ObjectMapper();

    /** Another module's entry as Kyma's lifecycle-manager writes it: fields Rekon never writes, kept as they are. */
    static final String KEDA = "{\"name\":\"keda\",\"fqdn\":\"kyma-project.io/keda\",\"state\":\"Warning\","
            + "\"maintenance\":true,\"channel\":\"fast\",\"version\":\"1.2.0\",\"template\":{\"apiVersion\":"
            + "\"operator.kyma-project.io/v1beta2\",\"kind\":\"ModuleTemplate\",\"metadata\":{\"name\":\"keda-1.2.0\","
            + "\"namespace\":\"kcp\",\"generation\":4}},\"resource\":{\"kind\":\"Keda\",\"metadata\":{\"name\":\"default\"}}}";

    static final String WIDGETS_OLD = "{\"name\":\"widgets\",\"state\":\"Processing\",\"maintenance\":false,"
            + "\"channel\":\"regular\",\"version\":\"1.0.0\",\"message\":\"signed manifest sha256:aa\",\"template\":"
            + "{\"apiVersion\":\"operator.kyma-project.io/v1beta2\",\"kind\":\"ModuleTemplate\",\"metadata\":"
            + "{\"name\":\"widgets-1.0.0\",\"namespace\":\"kcp\"}}}";

    static final String WIDGETS_READY = "{\"name\":\"widgets\",\"state\":\"Ready\",\"maintenance\":false,"
            + "\"channel\":\"regular\",\"version\":\"1.1.0\",\"message\":\"signed manifest sha256:bb\",\"template\":"
            + "{\"apiVersion\":\"operator.kyma-project.io/v1beta2\",\"kind\":\"ModuleTemplate\",\"metadata\":"
            + "{\"name\":\"widgets-1.1.0\",\"namespace\":\"kcp\"}}}";

    static final String SERVERLESS = "{\"name\":\"serverless\",\"state\":\"Ready\"}";

    static final ModuleStatus READY = new ModuleStatus("widgets", "regular", "1.1.0", ModuleState.Ready,
            "signed manifest sha256:bb", "kcp", "widgets-1.1.0");

    static KymaView kyma(String... entries) throws Exception {
        return KymaView.of(JSON.readTree("{\"metadata\":{\"namespace\":\"kcp\",\"name\":\"default\",\"resourceVersion\""
                + ":\"7\"},\"spec\":{\"modules\":[{\"name\":\"widgets\"}]},\"status\":{\"modules\":["
                + String.join(",", entries) + "]}}"));
    }

    @Test
    void theModulesEntryIsReplacedWhereItWasAndTheOthersPassThroughAsRead() throws Exception {
        KymaStatusUpdate update = new KymaStatusUpdate(kyma(KEDA, WIDGETS_OLD, SERVERLESS), "widgets", READY, ModuleState.Warning);

        assertEquals("[" + KEDA + "," + WIDGETS_READY + "," + SERVERLESS + "]",
                KymaStatusBody.modules(update).toString());
    }

    @Test
    void aNewEntryIsAppendedAndARemovedOneLeftOut() throws Exception {
        assertEquals("[" + KEDA + "," + WIDGETS_READY + "]", KymaStatusBody.modules(
                new KymaStatusUpdate(kyma(KEDA), "widgets", READY, ModuleState.Warning)).toString());
        assertEquals("[" + KEDA + "," + SERVERLESS + "]", KymaStatusBody.modules(
                new KymaStatusUpdate(kyma(KEDA, WIDGETS_OLD, SERVERLESS), "widgets", null, ModuleState.Warning)).toString());
    }

    @Test
    void anEntryWithoutATemplateOrMessageWritesNeither() throws Exception {
        ModuleStatus unmanaged = new ModuleStatus("widgets", null, null, ModuleState.Unmanaged, null, null, null);

        assertEquals("[{\"name\":\"widgets\",\"state\":\"Unmanaged\",\"maintenance\":false}]",
                KymaStatusBody.modules(new KymaStatusUpdate(kyma(), "widgets", unmanaged, ModuleState.Unmanaged)).toString());
    }

    @Test
    void anEntryReadBackIsTheRecordWrittenAndWritesTheSameBytes() throws Exception {
        assertEquals(READY, ModuleStatus.of(JSON.readTree(WIDGETS_READY)));
        assertEquals(WIDGETS_READY, KymaStatusBody.entry(ModuleStatus.of(JSON.readTree(WIDGETS_READY))).toString());
        assertEquals(READY, kyma(KEDA, WIDGETS_READY).statusOf("widgets"));
    }

    @Test
    void anotherWritersEntryIsReadForWhatRekonComparesAndAnUnknownStateIsNone() throws Exception {
        assertEquals(new ModuleStatus("keda", "fast", "1.2.0", ModuleState.Warning, null, "kcp", "keda-1.2.0"),
                ModuleStatus.of(JSON.readTree(KEDA)));
        assertNull(ModuleStatus.of(JSON.readTree("{\"name\":\"x\",\"state\":\"Sleeping\"}")).state());
    }

    @Test
    void thePatchIsGuardedByTheResourceVersionPlannedFrom() throws Exception {
        assertEquals("{\"metadata\":{\"resourceVersion\":\"7\"},\"status\":{\"state\":\"Warning\",\"modules\":["
                + KEDA + "," + WIDGETS_READY + "]}}", KymaStatusBody.patch(
                        new KymaStatusUpdate(kyma(KEDA, WIDGETS_OLD), "widgets", READY, ModuleState.Warning)).toString());
    }
}
