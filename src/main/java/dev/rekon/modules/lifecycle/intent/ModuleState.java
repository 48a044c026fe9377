package dev.rekon.modules.lifecycle.intent;

import java.util.Collection;

/**
 * Kyma's module states, worst last: a Kyma's {@code status.state} is the worst of its modules'.
 */
public enum ModuleState {
    Ready, Unmanaged, Processing, Deleting, Warning, Error;

    public static ModuleState worst(Collection<ModuleState> states) {
        return states.stream().max(Enum::compareTo).orElse(Ready);
    }

    /** The state named so, or null for a name Kyma does not define. */
    public static ModuleState of(String s) {
        for (ModuleState m : values()) {
            if (m.name().equals(s)) {
                return m;
            }
        }
        return null;
    }
}
