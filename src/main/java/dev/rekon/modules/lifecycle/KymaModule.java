package dev.rekon.modules.lifecycle;

import java.util.Objects;

import dev.rekon.core.ObjectRef;

/**
 * Names one module of one Kyma: what the module lifecycle reconciles, one at a time. A resync pass's keys also
 * carry the pass ({@link ModulePass}: what it reads once for all of them); two keys are the same module whatever
 * pass they carry, and an event's carries none.
 */
public record KymaModule(String namespace, String kyma, String module, ModulePass pass) {

    public static final String KYMA_API_VERSION = "operator.kyma-project.io/v1beta2";

    public KymaModule(String namespace, String kyma, String module) {
        this(namespace, kyma, module, null);
    }

    /** The module alone, without the pass: what is kept after the attempt (a last plan, a recheck). */
    public KymaModule named() {
        return pass == null ? this : new KymaModule(namespace, kyma, module);
    }

    public ObjectRef kymaRef() {
        return new ObjectRef(KYMA_API_VERSION, "Kyma", namespace, kyma);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof KymaModule k && Objects.equals(namespace, k.namespace) && Objects.equals(kyma, k.kyma)
                && Objects.equals(module, k.module);
    }

    @Override
    public int hashCode() {
        return Objects.hash(namespace, kyma, module);
    }

    @Override
    public String toString() {
        return "module " + module + " of Kyma " + namespace + "/" + kyma;
    }
}
