package dev.rekon.status;

import com.fasterxml.jackson.annotation.JsonIgnore;

/**
 * A part of the page an area owns, type and template both: its JSON is the implementing record's components
 * (under {@code sections.<key>} of {@code GET /status}), its HTML what the area's own template renders. The page
 * places each one in the order the areas added them, so a new area adds a section without a change here.
 */
public interface AreaSection {

    /** The name under {@code sections} in the JSON, and the HTML section's id. */
    @JsonIgnore
    String key();

    /** The section's HTML, one {@code <section>} element, escaped by the area's own (Qute) template. */
    @JsonIgnore
    String html();
}
