package dev.rekon.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import dev.rekon.core.NamespacePolicy;
import dev.rekon.core.ObjectRef;
import dev.rekon.core.Reply;

/**
 * The loop, not the planner, keeps each key's last plan for the page: planned, then carried out, or forgotten (when
 * the area remembers nothing of a plan, or the object is gone).
 */
class LastPlansTest {

    record Done(String views, Reply reply) implements Reconciler.Plan {
    }

    /** Plans from the key's text; remembers "row of <views>" unless the views say "quiet". */
    static class Area implements Reconciler<String, String, Done> {
        String views = "v1";

        @Override
        public ObjectRef subject(String key) {
            return new ObjectRef("v1", "ConfigMap", "team", key);
        }

        @Override
        public Optional<String> load(String key, boolean fresh) {
            return Optional.ofNullable(views);
        }

        @Override
        public Reply gone(String key) {
            return Reply.unchanged("Gone", key, List.of());
        }

        @Override
        public Done plan(String views) {
            return new Done(views, Reply.applied("Written", views, List.of()));
        }

        @Override
        public void apply(Done plan) {
        }

        @Override
        public String lastPlansArea() {
            return "test";
        }

        @Override
        public Object remember(String views, Done plan) {
            return views.equals("quiet") ? null : "row of " + views;
        }
    }

    final ReconcileLoop loop = ReconcileLoop.of(NamespaceGuard.of(NamespacePolicy.parse("team")));
    final Area area = new Area();
    final ObjectRef shop = area.subject("shop");

    @Test
    void aReportedPlanIsKeptAsPlannedAndAWrittenOneAsCarriedOut() {
        loop.report(area, "shop");
        LastPlans.Last<String> reported = loop.lastPlans().<String>of("test", shop).orElseThrow();
        assertEquals("row of v1", reported.remembered());
        assertFalse(reported.carriedOut());

        area.views = "v2";
        loop.reconcile(area, "shop");
        LastPlans.Last<String> written = loop.lastPlans().<String>of("test", shop).orElseThrow();
        assertEquals("row of v2", written.remembered());
        assertTrue(written.carriedOut());
        assertEquals("v2", ((Done) written.plan()).views());
        assertEquals(1, loop.lastPlans().of("test").size());
    }

    /**
     * An area that can say how a plan carried out in full left things has that kept in place of the plan, so what
     * a plan alone carried (its bodies, its report) is let go once written.
     */
    @Test
    void anAreaThatRemembersHowAPlanLeftThingsKeepsThatInsteadOfThePlan() {
        Area lean = new Area() {
            @Override
            public Object rememberCarriedOut(Object remembered, Done plan, Object answer) {
                return remembered + ", " + plan.views() + " written";
            }
        };
        loop.report(lean, "shop");
        assertEquals("v1", ((Done) loop.lastPlans().<String>of("test", shop).orElseThrow().plan()).views(),
                "a plan only reported is kept");

        loop.reconcile(lean, "shop");
        LastPlans.Last<String> written = loop.lastPlans().<String>of("test", shop).orElseThrow();
        assertEquals("row of v1, v1 written", written.remembered());
        assertTrue(written.carriedOut());
        assertNull(written.plan(), "the plan is let go");
    }

    /**
     * What the writes of a plan answered (the resourceVersions an apply gave, say) reaches the one place the area
     * says how the plan left things; the loop keeps nothing of it beside.
     */
    @Test
    void whatTheWritesAnsweredIsHandedToWhatTheAreaKeeps() {
        Area stamped = new Area() {
            @Override
            public Object applied(Done plan) {
                return "rv 7";
            }

            @Override
            public Object rememberCarriedOut(Object remembered, Done plan, Object answer) {
                return remembered + " at " + answer;
            }
        };
        loop.reconcile(stamped, "shop");
        LastPlans.Last<String> written = loop.lastPlans().<String>of("test", shop).orElseThrow();
        assertEquals("row of v1 at rv 7", written.remembered());
        assertTrue(written.carriedOut());
        assertNull(written.plan());

        loop.report(stamped, "shop");
        assertEquals("row of v1", loop.lastPlans().<String>of("test", shop).orElseThrow().remembered(),
                "a plan only reported answers nothing");
    }

    @Test
    void aPlanTheAreaRemembersNothingOfForgetsTheKey() {
        loop.reconcile(area, "shop");
        area.views = "quiet";
        loop.plan(area, "shop");
        assertTrue(loop.lastPlans().of("test", shop).isEmpty());
        assertEquals(List.of(), loop.lastPlans().of("other"));
    }

    @Test
    void aKeyFoundGoneIsForgotten() {
        loop.reconcile(area, "shop");
        assertEquals(1, loop.lastPlans().of("test").size());
        area.views = null;
        loop.reconcile(area, "shop");
        assertTrue(loop.lastPlans().of("test", shop).isEmpty(), "a deleted object's last plan is kept");

        area.views = "v3";
        loop.report(area, "shop");
        area.views = null;
        assertTrue(loop.plan(area, "shop").isEmpty());
        assertTrue(loop.lastPlans().of("test", shop).isEmpty(), "a deleted object's last plan is kept by the page");
    }
}
