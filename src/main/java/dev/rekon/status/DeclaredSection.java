package dev.rekon.status;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;

import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * The DeclaredStates: one row each, problem rows first, each what its planner plans now in report mode.
 */
@RegisterForReflection
@JsonInclude(JsonInclude.Include.NON_NULL)
public record DeclaredSection(String scope, int problems, List<DeclaredRow> rows) {

    public static final String SCOPE = "the last plan of each DeclaredState on this replica (events, pushes, resync passes; a"
            + " report-mode resync plans them all again without writing); orphans as the last resync pass listed them";

    public DeclaredSection {
        rows = List.copyOf(rows);
    }
}
