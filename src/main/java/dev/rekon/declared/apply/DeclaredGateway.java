package dev.rekon.declared.apply;

import java.util.List;
import java.util.Optional;
import java.util.Set;

import dev.rekon.core.ObjectRef;
import dev.rekon.declared.intent.DeclaredStateStatus;
import dev.rekon.declared.intent.DeclaredStateView;
import dev.rekon.declared.source.GitCredentials;
import dev.rekon.manifests.apply.ManifestCluster;

/**
 * All cluster I/O of DeclaredStates (the branch is read by {@link dev.rekon.declared.source.GitSource}): the
 * DeclaredStates and their credentials, their objects as each one's ServiceAccount, the kinds the server serves,
 * and the writes of the DeclaredState itself (finalizer, status), each guarded by the resourceVersion given and
 * answering the new one. Failures are sorted here into Rekon's terms.
 */
public interface DeclaredGateway {

    Optional<DeclaredStateView> state(String namespace, String name);

    /** Every DeclaredState in a namespace, or in every namespace Rekon may act in when it is null. */
    List<DeclaredStateView> states(String namespace);

    /** The Secret's {@code username} and {@code password} (a token as password), or empty when it is missing. */
    Optional<GitCredentials> credentials(String namespace, String secret);

    /** Its objects, read and written as its {@code spec.serviceAccountName} (or Rekon itself). */
    ManifestCluster objects(DeclaredStateView state);

    /** The cluster-scoped kinds the server serves, as {@code group/Kind}. */
    Set<String> clusterKinds();

    /** Whether discovery finds the kind in that group version (a CRD just installed is found too). */
    boolean serves(String apiVersion, String kind);

    /**
     * Every namespaced kind the server serves that can be listed and may hold orphans (no Events, Leases,
     * EndpointSlices: the cluster's own), as a reference in {@code namespace}, name "".
     */
    List<ObjectRef> namespacedKinds(String namespace);

    /** Adds or removes Rekon's finalizer; answers the new resourceVersion. */
    String finalizer(DeclaredStateView state, String resourceVersion, boolean present);

    /** Writes the status planned for {@code state} over the one it has; answers the new resourceVersion. */
    String writeStatus(DeclaredStateView state, String resourceVersion, DeclaredStateStatus status);
}
