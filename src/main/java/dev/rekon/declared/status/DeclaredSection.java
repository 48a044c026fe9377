package dev.rekon.declared.status;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;

import dev.rekon.status.AreaSection;
import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * The DeclaredStates' section of the page (area {@code declared}; JSON {@code declared} at the top of the
 * document): one row each, problem rows first, each as its last plan on this replica left it ({@link DeclaredBoard}).
 */
@RegisterForReflection
@JsonInclude(JsonInclude.Include.NON_NULL)
public record DeclaredSection(String scope, int problems, List<DeclaredRow> rows) implements AreaSection {

    public static final String SCOPE = "the last plan of each DeclaredState on this replica (events, pushes, resync passes; a"
            + " report-mode resync plans them all again without writing); orphans as the last resync pass listed them";

    public DeclaredSection {
        rows = List.copyOf(rows);
    }

    @Override
    public Slot slot() {
        return new Slot("declared", 40, Json.TOP);
    }

    @Override
    public String summaryHtml() {
        return AreaSection.counted(rows.size(), "DeclaredStates", problems, "not ready");
    }
}
