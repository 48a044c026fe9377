package dev.rekon.status;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonIgnore;

import dev.rekon.status.StatusReport.Decision;

/**
 * A part of the page an area owns, rows, counts and template all: its JSON is the implementing record's components
 * (where {@link Slot#json} says), its HTML the area's own template {@code templates/<record's simple name>/rows.html}
 * (given the section as {@code section}), its counts part of the summary. The page places each one by
 * {@link Slot#place}, so a new area adds a section without a change here.
 */
public interface AreaSection {

    /** Where the section's components go in the JSON document. */
    enum Json {
        /** Under {@code sections.<key>}: every new area's. */
        SECTIONS,
        /** At the top of the document, under its key: kept for the page's first areas, whose readers know it there. */
        TOP,
        /** Each component at the top of the document, under its own name: likewise kept for the first areas. */
        UNWRAPPED
    }

    /**
     * Where the section is.
     *
     * @param key   the name in the JSON and the HTML section's id; one section per key
     * @param place the page's order, lowest first; a new area's comes after the first areas' (below 100)
     */
    record Slot(String key, int place, Json json) {

        /** A new area's section: under {@code sections.<key>}, after the first areas. */
        public static Slot of(String key) {
            return new Slot(key, 100, Json.SECTIONS);
        }
    }

    @JsonIgnore
    Slot slot();

    /** The name under which the section is in the JSON, and the HTML section's id. */
    @JsonIgnore
    default String key() {
        return slot().key();
    }

    /** What the section adds to the summary: counts by name ({@code rollouts}, {@code rolloutProblems}, ...). */
    @JsonIgnore
    default Map<String, Integer> counts() {
        return Map.of();
    }

    /** Its part of the page's summary line, as HTML of counts and fixed words (nothing to escape); empty: none. */
    @JsonIgnore
    default String summaryHtml() {
        return "";
    }

    /** One part of the summary line: {@code <n> <what>, <b><flagged></b> <flag>}. */
    static String counted(int n, String what, int flagged, String flag) {
        return "<span>" + n + " " + what + ", <b>" + flagged + "</b> " + flag + "</span>";
    }

    /** The section with what this replica decided beside its rows (newest first); most areas show none. */
    default AreaSection decided(List<Decision> recent) {
        return this;
    }
}
