package dev.rekon.modules.publish.plan;

/**
 * A Kyma that lists a module, as promotion reads it: the channel it follows the module on ({@code spec.modules[]},
 * Kyma's defaults applied), and what its {@code status.modules[]} entry says it runs: version and state
 * ({@code Ready}, {@code Processing}, {@code Warning}, {@code Error}, ...; null when there is no entry yet).
 */
public record KymaFollower(String namespace, String name, String channel, String version, String state,
        String message) {

    public static final String READY = "Ready";

    public boolean ready(String at) {
        return READY.equals(state) && at != null && at.equals(version);
    }

    /** Failing: Kyma's {@code Error} and {@code Warning} states. */
    public boolean failing() {
        return "Error".equals(state) || "Warning".equals(state);
    }

    public String describe() {
        return "Kyma " + namespace + "/" + name;
    }
}
