package dev.rekon.buildpacks.apply;

import java.util.Optional;

import dev.rekon.buildpacks.plan.KpackStatus;
import dev.rekon.buildpacks.view.BuilderView;
import dev.rekon.buildpacks.view.BuildpackView;
import dev.rekon.buildpacks.view.ImageHead;
import dev.rekon.buildpacks.view.ImageRead;
import dev.rekon.cluster.Versioned;
import dev.rekon.core.ObjectRef;
import dev.rekon.registry.DockerConfig;

/**
 * All I/O of buildpack publication: kpack objects read from the apiserver, buildpackage images read from
 * registries with a ServiceAccount's pull secrets, status subresources merge-patched. Transient failures
 * (apiserver or registry) are {@link dev.rekon.core.TransientFailureException}s; a registry's permanent refusal is
 * an {@link ImageRead.Unreadable}, the apiserver's a {@link dev.rekon.core.RefusedException}.
 */
public interface BuildpackGateway {

    /**
     * A Buildpack or ClusterBuildpack as the apiserver has it now, with the version that guards its write;
     * {@code namespace} null for the cluster-scoped kind.
     */
    Optional<Versioned<BuildpackView>> buildpack(String kind, String namespace, String name);

    /** A Builder or ClusterBuilder as the apiserver has it now, with the version that guards its write. */
    Optional<Versioned<BuilderView>> builder(String kind, String namespace, String name);

    /**
     * Writes the status, only if the object is still at {@code resourceVersion} when that is not null (a 409,
     * transient, otherwise). Returns the resourceVersion after the write.
     */
    String patchStatus(ObjectRef target, KpackStatus.Patch statusPatch, String resourceVersion);

    /** The buildpackage image read with the credentials of a ServiceAccount's pull secrets (none when null). */
    ImageRead readBuildpackage(String image, String saNamespace, String saName);

    /** The credentials of a ServiceAccount's dockerconfigjson pull secrets (none when null); empty if it does not exist. */
    Optional<DockerConfig> pullSecrets(String namespace, String name);

    /** One manifest HEAD of the image, with pull credentials read before (a resync shares them per ServiceAccount). */
    ImageHead headDigest(String image, Optional<DockerConfig> credentials, String saNamespace, String saName);
}
