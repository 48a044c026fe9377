package dev.rekon.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

class NamespacePolicyTest {

    @Test
    void anExplicitListAllowsOnlyItsNamespacesAndNoClusterScope() {
        NamespacePolicy p = NamespacePolicy.parse(" team-a, team-b ,");
        assertTrue(p.allows("team-a"));
        assertFalse(p.allows("team-c"));
        assertFalse(p.allows(null));
        assertEquals(List.of("in team-a", "in team-b"),
                p.across(ns -> List.of("in " + ns), () -> List.of("everywhere")));
    }

    @Test
    void aStarAllowsEverythingAndListsClusterWide() {
        NamespacePolicy p = NamespacePolicy.parse("*");
        assertTrue(p.allows("anything"));
        assertTrue(p.allows(null));
        assertEquals(List.of("everywhere"), p.across(ns -> List.of("in " + ns), () -> List.of("everywhere")));
    }

    @Test
    void clusterScopedObjectsNeedTheirOwnSwitchBesideAnExplicitList() {
        assertFalse(NamespacePolicy.parse("a", false).allows(null));
        assertTrue(NamespacePolicy.parse("a", true).allows(null));
        assertFalse(NamespacePolicy.parse("a", true).allows("b"));
        assertEquals("cluster-scoped objects are outside rekon.namespaces [a]; set rekon.cluster-scoped=true (or "
                + "rekon.namespaces=*) to let Rekon act on them", NamespacePolicy.parse("a").refusal(null));
    }

    @Test
    void theRefusalSaysWhatToChange() {
        assertEquals("namespace 'x' is not in rekon.namespaces [a]; add it there (or '*') to let Rekon act in it",
                NamespacePolicy.parse("a").refusal("x"));
    }
}
