package dev.rekon.modules.lifecycle.intent;

/**
 * One entry of a Kyma's {@code spec.modules[]}, with Kyma's defaults applied: the channel defaults to the Kyma's
 * {@code spec.channel}, else {@value #DEFAULT_CHANNEL}; {@code managed} to true; the custom resource policy to
 * {@code CreateAndDelete}.
 */
public record DeclaredModule(String name, String channel, boolean managed, boolean createAndDeleteCr) {

    public static final String DEFAULT_CHANNEL = "regular";
}
