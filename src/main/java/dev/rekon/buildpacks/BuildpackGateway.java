package dev.rekon.buildpacks;

import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.core.ObjectRef;

/**
 * All I/O of buildpack publication: kpack objects read from the apiserver, buildpackage images read from
 * registries with a ServiceAccount's pull secrets, status subresources merge-patched. Transient failures
 * (apiserver or registry) are {@link dev.rekon.core.TransientFailureException}s; a registry's permanent refusal is
 * an {@link ImageRead.Unreadable}, the apiserver's a {@link dev.rekon.cluster.KubeErrors.PermanentApiException}.
 */
public interface BuildpackGateway {

    /** The object as JSON; {@code namespace} null for cluster-scoped kinds. */
    Optional<JsonNode> get(String kind, String namespace, String name);

    /**
     * Writes the status, only if the object is still at {@code resourceVersion} when that is not null (a 409,
     * transient, otherwise). Returns the resourceVersion after the write.
     */
    String patchStatus(ObjectRef target, ObjectNode statusPatch, String resourceVersion);

    /** The buildpackage image read with the credentials of a ServiceAccount's pull secrets (none when null). */
    ImageRead readBuildpackage(String image, String saNamespace, String saName);
}
