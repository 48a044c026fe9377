package dev.rekon.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * The bench's own plumbing, as a new user meets it: the parts {@code hack/bench.sh} selects reach the drivers,
 * and the scaled-down Builder figure ends.
 */
class BenchPartsTest {

    @Test
    void thePartsTheScriptSelectsReachTheDriverWhenNoPropertyIsSet() {
        assertEquals(List.of("latency"), Bench.parts(null, "latency"));
        assertEquals(List.of("cold", "latency"), Bench.parts(null, "cold,latency"));
    }

    @Test
    void theSystemPropertyWinsOverTheScriptAndTheDefaultIsEveryWarmPart() {
        assertEquals(List.of("noop"), Bench.parts("noop", "latency"));
        assertEquals(List.of("latency", "noop", "scale", "builders"), Bench.parts(null, null));
        assertEquals(List.of("latency", "noop", "scale", "builders"), Bench.parts(null, " "));
    }

    @Test
    void builderIdsEndWhenThereAreNoMoreBuildpacksThanPopularOnes() {
        for (int buildpacks : new int[] {4, 5, 10, 11, 14, 15, 1000}) {
            for (int j = 0; j < 40; j++) {
                int b = buildpacks;
                int builder = j;
                List<Integer> ids = assertTimeoutPreemptively(Duration.ofSeconds(2), () -> BuilderBench.idsOf(builder, b));
                assertEquals(Math.min(BuilderBench.IDS_PER_BUILDER, buildpacks), ids.size(), "ids of " + ids);
                assertEquals(ids.size(), new HashSet<>(ids).size(), "distinct: " + ids);
                assertTrue(ids.stream().allMatch(id -> id >= 0 && id < b), "within the buildpacks made: " + ids);
            }
        }
    }

    @Test
    void kymaFleetModuleNamesAreDistinctAndWhatTheModuleTemplateCrdAccepts() {
        java.util.Set<String> names = new HashSet<>();
        for (int k = 0; k < 1000; k++) {
            String name = "fleet-" + KymaFleetBench.letters(k) + "-" + KymaFleetBench.letters(k % 3);
            assertTrue(name.matches("^([a-z]{3,}(-[a-z]{3,})*)?$"), name);
            assertTrue(names.add(name), "distinct: " + name);
        }
        assertEquals("aaa", KymaFleetBench.letters(0));
        assertEquals("abb", KymaFleetBench.letters(27));
    }

    @Test
    void builderIdsAtFullScaleAreTheSameAsBefore() {
        assertEquals(List.of(7, 39, 40, 41, 42), BuilderBench.idsOf(7, 1000));
    }
}
