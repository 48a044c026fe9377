package dev.rekon.modules.apply;

import java.util.List;
import java.util.Optional;

import dev.rekon.modules.plan.ModuleDeployment;
import dev.rekon.modules.plan.ModulePlan.DeploymentPatch;
import dev.rekon.modules.release.KymaKind;

/**
 * All I/O of module updates: the module Deployments (labelled {@value ModuleDeployment#MODULE_LABEL}) in the
 * namespaces Rekon may act in, Kyma's ModuleReleaseMetas and ModuleTemplates, and the patches of a plan. Failures
 * are sorted here: transient (a lost race is a 409 conflict) or a permanent API refusal.
 */
public interface ModuleGateway {

    /** The Deployments of one module, from the Deployment watch where it has synced. */
    default List<ModuleDeployment> deployments(String module) {
        return deployments(module, false);
    }

    /**
     * The Deployments of one module; {@code fresh} after a lost race: from the apiserver, since the watch may not
     * have seen the write that won.
     */
    List<ModuleDeployment> deployments(String module, boolean fresh);

    /** The Deployments of every module. */
    List<ModuleDeployment> allModuleDeployments();

    /** A ModuleReleaseMeta or ModuleTemplate ({@code kind}), or empty when it no longer exists. */
    <V> Optional<V> read(KymaKind<V> kind, String namespace, String name);

    /**
     * The ModuleReleaseMetas or ModuleTemplates ({@code kind}) in a namespace, or in every namespace when it is null;
     * none without Kyma.
     */
    <V> List<V> list(KymaKind<V> kind, String namespace);

    /** Writes one patch, guarded by the resourceVersion it was planned against. */
    void patch(DeploymentPatch patch);
}
