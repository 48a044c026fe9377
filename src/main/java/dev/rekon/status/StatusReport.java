package dev.rekon.status;

import java.lang.reflect.RecordComponent;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;

import dev.rekon.core.ObjectRef;
import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * The document {@code GET /status} answers and {@code GET /} renders: when and for which namespace it was made, the
 * summary counted from the sections, the areas' sections ({@link AreaSection}: each area's rows as its plans have
 * them, in page order), this replica's recent decisions, and what could not be watched. No area's row is named
 * here: an area adds its section through {@link #withSection}.
 *
 * @param summary  each section's counts by name, in page order; null until {@link #summarized}
 * @param sections in page order; in the JSON each under {@code sections.<key>}, or at the top for the page's
 *                 first areas ({@link AreaSection#topLevel})
 */
@RegisterForReflection
@JsonInclude(JsonInclude.Include.NON_NULL)
public record StatusReport(Instant generatedAt, String namespace, Map<String, Integer> summary,
        @JsonIgnore List<AreaSection> sections, Decisions decisions, List<String> unavailable) {

    private static final Comparator<AreaSection> PLACE = Comparator.comparingInt(s -> s.slot().place());

    public StatusReport {
        sections = sections.stream().sorted(PLACE).toList();
    }

    /** A report of nothing yet, for the areas' {@link AreaReport}s to add their sections to. */
    public static StatusReport empty(Instant generatedAt, String namespace) {
        return new StatusReport(generatedAt, namespace, null, List.of(), null, List.of());
    }

    /** The report with an area's section (replacing one of the same key), in page order. */
    public StatusReport withSection(AreaSection section) {
        List<AreaSection> more = new ArrayList<>(sections.stream().filter(s -> !s.key().equals(section.key())).toList());
        more.add(section);
        return new StatusReport(generatedAt, namespace, summary, more, decisions, unavailable);
    }

    /** The section of that type, or null when no area added one. */
    public <S extends AreaSection> S section(Class<S> type) {
        return sections.stream().filter(type::isInstance).map(type::cast).findFirst().orElse(null);
    }

    /** The report with every section as {@code change} leaves it. */
    public StatusReport withSections(UnaryOperator<AreaSection> change) {
        return new StatusReport(generatedAt, namespace, summary, sections.stream().map(change).toList(), decisions,
                unavailable);
    }

    /** The report with this replica's recent decisions (null: not asked for). */
    public StatusReport withDecisions(Decisions recent) {
        return new StatusReport(generatedAt, namespace, summary, sections, recent, unavailable);
    }

    /** The report with what could not be watched, and the summary counted from its sections. */
    public StatusReport summarized(List<String> missing) {
        Map<String, Integer> counted = new LinkedHashMap<>();
        sections.forEach(s -> counted.putAll(s.counts()));
        return new StatusReport(generatedAt, namespace, counted, sections, decisions, List.copyOf(missing));
    }

    /** The sections in the JSON, each where its {@link AreaSection.Slot} says. */
    @JsonAnyGetter
    Map<String, Object> json() {
        Map<String, Object> top = new LinkedHashMap<>();
        Map<String, AreaSection> keyed = new LinkedHashMap<>();
        for (AreaSection s : sections) {
            switch (s.slot().json()) {
                case SECTIONS -> keyed.put(s.key(), s);
                case TOP -> top.put(s.key(), s);
                case UNWRAPPED -> top.putAll(components(s));
            }
        }
        if (!keyed.isEmpty()) {
            top.put("sections", keyed);
        }
        return top;
    }

    /** A section record's components by name, in their order. */
    private static Map<String, Object> components(AreaSection s) {
        Map<String, Object> named = new LinkedHashMap<>();
        for (RecordComponent c : s.getClass().getRecordComponents()) {
            try {
                named.put(c.getName(), c.getAccessor().invoke(s));
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("section " + s.key() + ": " + c.getName(), e);
            }
        }
        return named;
    }

    /** This replica's recent event outcomes, newest first. */
    @RegisterForReflection
    public record Decisions(String scope, int kept, List<Decision> recent) {
    }

    /** The outcome of one event this replica handled. */
    @RegisterForReflection
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Decision(Instant time, String type, String outcome, String reason, String message,
            List<ObjectRef> objects) {

        public Decision {
            objects = objects == null ? List.of() : List.copyOf(objects);
        }
    }
}
