package dev.rekon.promotions.status;

import static dev.rekon.promotions.plan.Promotions.NOW;
import static dev.rekon.promotions.plan.Promotions.build;
import static dev.rekon.promotions.plan.Promotions.deploy;
import static dev.rekon.promotions.plan.Promotions.promoted;
import static dev.rekon.promotions.plan.Promotions.promotion;
import static dev.rekon.promotions.plan.Promotions.request;
import static dev.rekon.promotions.plan.Promotions.running;
import static dev.rekon.promotions.plan.Promotions.source;
import static dev.rekon.promotions.plan.Promotions.stage;
import static dev.rekon.promotions.plan.Promotions.stages;
import static dev.rekon.promotions.plan.Promotions.view;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;

import dev.rekon.promotions.plan.Approval;
import dev.rekon.promotions.plan.ImagePromotionPlan;
import dev.rekon.promotions.plan.ImagePromotionPlanner;
import dev.rekon.promotions.plan.PromotionRequest;
import dev.rekon.promotions.view.Build;
import dev.rekon.promotions.view.ImagePromotionView;
import dev.rekon.promotions.view.StagePhase;
import dev.rekon.promotions.view.StageStatus;

/**
 * What the page shows of a promotion is what its plan decided: the planner runs on the table's views, and the board
 * renders that plan's stages in spec order (never the status as it was read).
 */
class PromotionRowsTest {

    private static final Build B0 = build(7);
    private static final Build B1 = build(8);

    private final ImagePromotionPlanner planner = new ImagePromotionPlanner();

    private PromotionStages board(PromotionRequest r) {
        ImagePromotionPlan plan = planner.plan(r);
        return PromotionRows.row(r, plan);
    }

    private static Map<String, StageCell> byName(PromotionStages p) {
        Map<String, StageCell> cells = new java.util.LinkedHashMap<>();
        p.stages().forEach(c -> cells.put(c.name(), c));
        return cells;
    }

    @Test
    void aSoakingStageShowsItsBuildAndTheTimeLeftFromThePagesNow() {
        ImagePromotionView p = promotion("None", stages(stage("dev", B1, StagePhase.Promoting, NOW.minusSeconds(60),
                null), StageStatus.empty("staging"), StageStatus.empty("prod")));
        PromotionStages row = board(request(p, source(8), view("dev", null, running(B1, 10), null), null, null, null));
        assertEquals(List.of("dev", "staging", "prod"), row.stages().stream().map(StageCell::name).toList());
        StageCell dev = row.stages().get(0);
        assertEquals("Soaking", dev.phase(), "the plan's phase: the status read said Promoting");
        assertEquals("sha256:" + "0".repeat(12), dev.digest(), "the first 12 hex digits");
        assertEquals(8L, dev.buildCounter());
        assertEquals(NOW.plusSeconds(20), dev.soakEnd());
        assertEquals("15s", row.at(NOW.plusSeconds(5), true).stages().get(0).soakLeft());
        assertEquals("ending", row.at(NOW.plusSeconds(25), true).stages().get(0).soakLeft());
        assertEquals("this cluster, namespace demo", dev.where());
        assertEquals("cluster of Secret staging-kubeconfig, namespace demo", row.stages().get(1).where());
        assertEquals("Empty", row.stages().get(2).phase());
        assertTrue(row.stages().get(2).manual());
        assertFalse(row.problem());
        assertEquals("True", row.ready());
    }

    @Test
    void aManualStageShowsTheApprovalItWaitsFor() {
        ImagePromotionView p = promotion("None", stages(stage("dev", B1, StagePhase.Proven, NOW.minusSeconds(900), B1),
                stage("staging", B1, StagePhase.Proven, NOW.minusSeconds(300), B1),
                stage("prod", B0, StagePhase.Proven, NOW.minusSeconds(9000), B0)));
        PromotionStages row = board(request(p, source(8), view("dev", null, running(B1, 900), null),
                view("staging", promoted(B1, 2), running(B1, 700), null), view("prod", promoted(B0, 1),
                        running(B0, 9000), null), null));
        StageCell prod = byName(row).get("prod");
        assertEquals("WaitingForApproval", prod.phase());
        assertEquals("approval of " + B1.image(), prod.waitingFor());
        assertEquals(7L, prod.buildCounter(), "the build still there");
        assertNull(prod.soakEnd());
    }

    @Test
    void aFailedStageAndARolledBackOneAreProblems() {
        for (String rollback : List.of("None", "Automatic")) {
            ImagePromotionView p = promotion(rollback, stages(stage("dev", B1, StagePhase.Proven, NOW.minusSeconds(900),
                    B1), stage("staging", B1, StagePhase.Soaking, NOW.minusSeconds(60), B0), StageStatus.empty("prod")));
            PromotionStages row = board(request(p, source(8), view("dev", null, running(B1, 900), null),
                    view("staging", promoted(B1, 5), deploy(B1, "False", "False", 10), null), null, null));
            StageCell staging = byName(row).get("staging");
            assertEquals(rollback.equals("None") ? "Failed" : "RolledBack", staging.phase());
            assertTrue(staging.problem(), rollback);
            assertEquals(B1.image(), staging.lastFailed());
            assertTrue(row.problem());
            assertFalse(byName(row).get("dev").problem());
        }
    }

    @Test
    void badInputShowsTheRefusalAndAnApprovalRefusedShowsThePromotionAsItStands() {
        ImagePromotionView bad = promotion("metadata: {name: bad, namespace: demo, generation: 1}\nspec:\n"
                + "  source: {image: hello}\n  stages: [{name: a, imageDeploys: [hello], soak: soon}]\n");
        PromotionStages refused = board(request(bad, source(8), null, null, null, null));
        assertEquals("False", refused.ready());
        assertEquals("InvalidSoak", refused.reason());
        assertTrue(refused.problem());

        ImagePromotionView p = promotion("None", stages(stage("dev", B1, StagePhase.Proven, NOW.minusSeconds(900), B1),
                StageStatus.empty("staging"), StageStatus.empty("prod")));
        PromotionRequest approval = request(p, source(8), view("dev", null, running(B1, 900), null), null, null,
                new Approval("nowhere", B1.image()));
        assertEquals(ImagePromotionPlanner.UNKNOWN_STAGE, planner.plan(approval).reply().reason());
        PromotionStages row = board(approval);
        assertEquals("Proven", byName(row).get("dev").phase());
        assertEquals("True", row.ready());
    }

    @Test
    void theSectionPutsProblemsFirstKeepsOneNamespaceAndSerializesOnlyItsRows() throws Exception {
        PromotionStages ok = new PromotionStages("demo", "a", "hello", "True", "Reconciled", null, false, List.of(),
                true, NOW);
        PromotionStages failed = new PromotionStages("demo", "b", "hello", "True", "Reconciled", null, true,
                List.of(), false, NOW);
        PromotionStages elsewhere = new PromotionStages("other", "c", "hello", "True", "Reconciled", null, false,
                List.of(), true, NOW);
        List<PromotionStages> last = List.of(ok, failed, elsewhere);
        ImagePromotionSection all = PromotionStagesReport.section(last, null, NOW);
        assertEquals(List.of("b", "a", "c"), all.rows().stream().map(PromotionStages::name).toList());
        assertEquals(1, all.problems());
        assertTrue(all.rows().get(1).carriedOut());
        ImagePromotionSection demo = PromotionStagesReport.section(last, "demo", NOW);
        assertEquals(List.of("b", "a"), demo.rows().stream().map(PromotionStages::name).toList());

        ObjectMapper json = new ObjectMapper().registerModule(new JavaTimeModule())
                .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);
        var tree = json.valueToTree(demo);
        assertEquals(List.of("scope", "problems", "rows"), iterable(tree.fieldNames()));
        assertEquals(ImagePromotionSection.KEY, demo.key());
    }

    private static List<String> iterable(java.util.Iterator<String> names) {
        List<String> out = new java.util.ArrayList<>();
        names.forEachRemaining(out::add);
        return out;
    }

}
