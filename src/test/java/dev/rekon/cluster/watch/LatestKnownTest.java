package dev.rekon.cluster.watch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.rekon.cluster.Versioned;

/** What an event knew stands in for a lagging watch's view, and only until the watch catches up. */
class LatestKnownTest {

    record View(String name, String state) {
    }

    final LatestKnown<View> latest = new LatestKnown<>(View::name);

    @Test
    void aKnownNewerVersionReplacesTheWatchedOneUntilTheWatchShowsIt() {
        latest.put("a", "12", new View("a", "written"));

        assertEquals(List.of(new View("a", "written"), new View("b", "watched")),
                latest.over(List.of(watched("a", "11", "old"), watched("b", "5", "watched")), v -> true));
        assertEquals(List.of(new View("a", "later")), latest.over(List.of(watched("a", "13", "later")), v -> true));
        assertEquals(List.of(new View("a", "watched again")),
                latest.over(List.of(watched("a", "11", "watched again")), v -> true), "caught up once: forgotten");
    }

    @Test
    void aKnownObjectTheWatchDoesNotShowYetIsAddedWhereItBelongs() {
        latest.put("new", "3", new View("new", "created"));

        assertEquals(List.of(new View("new", "created")), latest.over(List.of(), v -> true));
        assertTrue(latest.over(List.of(), v -> false).isEmpty());
    }

    @Test
    void aKnownDeletionHidesTheWatchedObject() {
        latest.put("a", null, null);

        assertTrue(latest.over(List.of(watched("a", "11", "old")), v -> true).isEmpty());
    }

    @Test
    void versionsThatAreNoNumbersOnlyMatchThemselves() {
        assertTrue(Versioned.olderThan("9", "10"));
        assertTrue(!Versioned.olderThan("10", "10"));
        assertTrue(Versioned.olderThan("x1", "x2"));
        assertTrue(!Versioned.olderThan("x2", "x2"));
    }

    private static Versioned<View> watched(String name, String version, String state) {
        return new Versioned<>(version, new View(name, state));
    }
}
