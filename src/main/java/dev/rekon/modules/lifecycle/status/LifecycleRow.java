package dev.rekon.modules.lifecycle.status;

import java.time.Instant;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;

import dev.rekon.core.ObjectRef;
import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * One module of one Kyma as the page plans it now, for {@code GET /status}.
 *
 * @param version       the version installed (null before the first install finished)
 * @param release       the version the plan brings it to (the channel's), or null when none resolves
 * @param state         the module's state as the plan writes it to the Kyma's {@code status.modules[]}
 *                      ({@code Ready}, {@code Processing}, {@code Unmanaged}, {@code Deleting}, {@code Warning},
 *                      {@code Error})
 * @param action        what the plan does ({@code INSTALL}, {@code UPGRADE}, {@code REPAIR}, {@code NONE}, ...)
 * @param objects       the objects the module's inventory records
 * @param pendingApply  objects the plan would still apply
 * @param pendingPrunes objects the plan would still delete, in its order (none once it was carried out)
 * @param conflicts     objects of the release that exist and belong to someone else
 * @param pending       true while the plan would still write something (false once it was carried out)
 */
@RegisterForReflection
@JsonInclude(JsonInclude.Include.NON_NULL)
public record LifecycleRow(String namespace, String kyma, String module, String channel, String version,
        String release, String state, boolean problem, String action, String reason, String message, int objects, int pendingApply,
        List<ObjectRef> pendingPrunes, List<ObjectRef> conflicts, boolean pending, Instant planned) {

    public LifecycleRow {
        pendingPrunes = List.copyOf(pendingPrunes);
        conflicts = List.copyOf(conflicts);
    }
}
