package dev.rekon.modules.lifecycle.plan;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import dev.rekon.modules.lifecycle.intent.KymaView;
import dev.rekon.modules.lifecycle.intent.ModuleState;
import dev.rekon.modules.lifecycle.intent.ModuleStatus;

/**
 * The Kyma status a module's plan leads to: this module's entry of {@code status.modules[]} set (or removed once it
 * is uninstalled), the other modules' entries kept as the Kyma has them, and {@code status.state} the worst of them.
 * Null from {@link #of} when it is what the Kyma already has, so an in-line module writes nothing (kpack's
 * updateStatus, skipped when equal). The gateway writes it guarded by the Kyma's resourceVersion.
 *
 * @param module the module whose entry this sets
 * @param entry the module's entry, or null to remove it
 * @param state the Kyma's {@code status.state} that follows
 */
public record KymaStatusUpdate(KymaView kyma, String module, ModuleStatus entry, ModuleState state) {

    static KymaStatusUpdate of(KymaView kyma, String module, ModuleStatus entry) {
        if (kyma == null || kyma.deleting() && entry != null) {
            return null;
        }
        ModuleStatus current = kyma.statusOf(module);
        List<ModuleState> states = new ArrayList<>();
        for (ModuleStatus m : kyma.statusModules()) {
            if (!module.equals(m.name())) {
                // A state Kyma does not define names no problem, so it leaves the Kyma's state as it is.
                states.add(m.state() == null ? ModuleState.Ready : m.state());
            }
        }
        if (Objects.equals(entry, current)) {
            return null;
        }
        if (entry != null) {
            states.add(entry.state());
        }
        return new KymaStatusUpdate(kyma, module, entry, ModuleState.worst(states));
    }
}
