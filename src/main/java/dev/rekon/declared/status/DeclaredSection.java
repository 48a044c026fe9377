package dev.rekon.declared.status;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;

import dev.rekon.status.AreaSection;
import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * The DeclaredStates' section of the page (area {@code declared}; JSON {@code declared} at the top of the
 * document): one row each, problem rows first, each as the loop plans it now in report mode ({@link DeclaredRows}).
 */
@RegisterForReflection
@JsonInclude(JsonInclude.Include.NON_NULL)
public record DeclaredSection(String scope, int problems, List<DeclaredRow> rows) implements AreaSection {

    public static final String SCOPE = "each DeclaredState planned now, reading nothing: its spec and status as watched, the"
            + " tip its last input listed on this replica, its objects as its last attempt read and left them; orphans as"
            + " the last resync pass listed them";

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
