package dev.rekon.modules.lifecycle;

import dev.rekon.core.ObjectRef;

/** Names one module of one Kyma: what the module lifecycle reconciles, one at a time. */
public record KymaModule(String namespace, String kyma, String module) {

    public static final String KYMA_API_VERSION = "operator.kyma-project.io/v1beta2";

    public ObjectRef kymaRef() {
        return new ObjectRef(KYMA_API_VERSION, "Kyma", namespace, kyma);
    }

    @Override
    public String toString() {
        return "module " + module + " of Kyma " + namespace + "/" + kyma;
    }
}
