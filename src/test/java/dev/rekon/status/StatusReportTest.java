package dev.rekon.status;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;

import dev.rekon.rollouts.status.RolloutSection;
import dev.rekon.rollouts.status.RolloutSection.PruneRow;

/**
 * The one shape of the page's document: generated-at, namespace, summary, the areas' sections, decisions and what
 * could not be watched. An area adds its section (rows, summary counts) without a field of {@code status/}, and the
 * JSON keeps the names the page's readers know.
 */
class StatusReportTest {

    static final Instant NOW = Instant.parse("2026-11-27T12:00:00Z");
    static final ObjectMapper JSON = new ObjectMapper().registerModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);

    /** A section of an area {@code status/} does not know. */
    record Widgets(int problems, List<String> rows) implements AreaSection {

        @Override
        public Slot slot() {
            return Slot.of("widgets");
        }

        @Override
        public Map<String, Integer> counts() {
            return Map.of("widgets", rows.size());
        }
    }

    @Test
    void theReportNamesNoAreaOfItsOwn() {
        assertEquals(List.of("generatedAt", "namespace", "summary", "sections", "decisions", "unavailable"),
                Arrays.stream(StatusReport.class.getRecordComponents()).map(c -> c.getName()).toList());
        assertTrue(Arrays.stream(StatusReport.class.getDeclaredClasses())
                .noneMatch(c -> c.getSimpleName().endsWith("Row")), "no area's row in status/");
    }

    @Test
    void aNewAreasSectionIsKeptUnderItsKeyAndCounted() {
        StatusReport r = StatusReport.empty(NOW, null).withSection(new Widgets(1, List.of("a", "b")))
                .summarized(List.of());
        JsonNode json = JSON.valueToTree(r);
        assertEquals(List.of("a", "b"), JSON.convertValue(json.at("/sections/widgets/rows"), List.class));
        assertEquals(2, json.at("/summary/widgets").asInt());
        assertEquals(2, r.summary().get("widgets"));
        assertEquals(List.of("widgets"), r.sections().stream().map(AreaSection::key).toList());
        assertEquals(2, r.section(Widgets.class).rows().size());
    }

    @Test
    void theFirstAreasKeepTheirNamesAtTheTopOfTheDocument() {
        RolloutSection rollouts = new RolloutSection(List.of(), List.of(),
                List.of(new PruneRow("demo", "d", "idp", "Orphaned", "gone")));
        StatusReport r = StatusReport.empty(NOW, "demo").withSection(rollouts).summarized(List.of());
        JsonNode json = JSON.valueToTree(r);
        assertEquals("d", json.at("/prunes/0/deployment").asText());
        assertTrue(json.at("/rollouts").isArray());
        assertEquals(1, json.at("/summary/prunes").asInt());
        assertEquals(0, json.at("/summary/rolloutProblems").asInt());
        assertTrue(json.at("/sections").isMissingNode(), json.toString());
        assertNull(r.section(Widgets.class));
        assertEquals("demo", json.at("/namespace").asText());
    }
}
