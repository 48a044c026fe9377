package dev.rekon.modules.lifecycle.status;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;

import dev.rekon.status.AreaSection;
import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * The modules Kymas declare, installed from their manifests: one row per module of a Kyma, problem rows first.
 *
 * @param serviceAccount the ServiceAccount ({@code namespace/name}) module objects are applied as, or null when
 *                       Rekon applies them with its own identity ({@code rekon.modules.apply-as} not set)
 * @param appliedAs      the same in words, as the page says it
 * @param scope          where the rows come from: each module planned now, from the watches and what this replica
 *                       last read of its objects
 */
@RegisterForReflection
@JsonInclude(JsonInclude.Include.NON_NULL)
public record LifecycleSection(String serviceAccount, String appliedAs, String scope, int problems,
        List<LifecycleRow> rows) implements AreaSection {

    public static final String SCOPE = "each module planned now from the watched Kymas and releases, the manifests and"
            + " objects this replica last read (the start-up resync reads every module)";

    public LifecycleSection {
        rows = List.copyOf(rows);
    }

    @Override
    public Slot slot() {
        return new Slot("lifecycle", 31, Json.TOP);
    }
}
