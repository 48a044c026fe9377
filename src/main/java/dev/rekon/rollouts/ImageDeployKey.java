package dev.rekon.rollouts;

import dev.rekon.core.ObjectRef;

/** What names one ImageDeploy to the loop, whatever the input: its group, namespace and name. */
public interface ImageDeployKey {

    String group();

    String namespace();

    String name();

    /** The rollout this key's Deployment write made, once made; a new input starts with none. */
    EarlierWrite earlier();

    /** The key the status pass of this rollout runs with ({@link StatusPasses}): what must be read again is. */
    ImageDeployKey forStatus();

    default ObjectRef ref() {
        return new ObjectRef(group() + "/v1alpha1", "ImageDeploy", namespace(), name());
    }
}
