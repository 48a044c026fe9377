package dev.rekon.declared.plan;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.rekon.core.NamespacePolicy;
import dev.rekon.core.ObjectRef;
import dev.rekon.declared.DeclaredKey;
import dev.rekon.declared.intent.DeclaredStateView;
import dev.rekon.manifests.Identity;
import dev.rekon.manifests.LiveObject;

/**
 * Everything the DeclaredState planner decides from, read in one attempt; every input explicit.
 *
 * @param source        what was read of the branch
 * @param live          the declared and inventoried objects that exist, by {@link Identity#key}
 * @param clusterKinds  the cluster-scoped kinds the server serves, as {@code group/Kind}
 * @param unserved      the kinds the revision declares that discovery does not find, as
 *                      {@link dev.rekon.manifests.plan.ServedKinds#key}
 * @param scanned       every object in {@code spec.namespaces} (orphan candidates, as {@link Scanned} identities), or
 *                      null when not listed in this attempt (the orphans in the status then stay as they are)
 * @param protectedRefs the DeclaredStates in those namespaces and the Secrets and ServiceAccounts they name
 * @param crossNamespace {@code rekon.declared.cross-namespace}
 */
public record DeclaredViews(DeclaredKey key, DeclaredStateView state, SourceState source, Map<String, LiveObject> live,
        Set<String> clusterKinds, Set<String> unserved, List<Scanned> scanned, Set<String> protectedRefs, NamespacePolicy policy,
        boolean crossNamespace, Instant now) {

    public DeclaredViews {
        live = Map.copyOf(live);
        clusterKinds = Set.copyOf(clusterKinds);
        unserved = Set.copyOf(unserved);
        scanned = scanned == null ? null : List.copyOf(scanned);
        protectedRefs = Set.copyOf(protectedRefs);
    }

    public LiveObject live(ObjectRef ref) {
        return live.get(Identity.key(ref));
    }
}
