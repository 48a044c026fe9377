package dev.rekon.modules.lifecycle.plan;

import java.util.Collection;

/**
 * Kyma's module states, worst last: a Kyma's {@code status.state} is the worst of its modules'.
 */
public enum ModuleState {
    Ready, Unmanaged, Processing, Deleting, Warning, Error;

    public static ModuleState worst(Collection<ModuleState> states) {
        return states.stream().max(Enum::compareTo).orElse(Ready);
    }

    public static ModuleState parse(String s) {
        for (ModuleState m : values()) {
            if (m.name().equals(s)) {
                return m;
            }
        }
        return Ready;
    }
}
