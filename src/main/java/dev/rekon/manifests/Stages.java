package dev.rekon.manifests;

import java.util.Comparator;
import java.util.Set;

import dev.rekon.core.ObjectRef;

/**
 * The order manifest objects are applied in, as kapp and Flux stage them: CRDs first (and Established before
 * anything uses them), then Namespaces, then ServiceAccounts and RBAC, then everything else, then a module's
 * default custom resource. Uninstall goes the other way, CRDs last.
 */
public final class Stages {

    public static final int CRDS = 0;
    public static final int DEFAULT_CR = 4;
    private static final Set<String> RBAC = Set.of("ServiceAccount", "Role", "ClusterRole", "RoleBinding",
            "ClusterRoleBinding");

    private Stages() {
    }

    public static int of(ObjectRef ref) {
        if ("CustomResourceDefinition".equals(ref.kind())) {
            return CRDS;
        }
        if ("Namespace".equals(ref.kind())) {
            return 1;
        }
        return RBAC.contains(ref.kind()) ? 2 : 3;
    }

    /** Apply order; objects of one stage keep the manifest's order (the sort is stable). */
    public static Comparator<ObjectRef> applyOrder() {
        return Comparator.comparingInt(Stages::of);
    }

    /** Delete order: the reverse stages, CRDs last. */
    public static Comparator<ObjectRef> deleteOrder() {
        return Comparator.comparingInt((ObjectRef r) -> -of(r));
    }

    /** Kinds that exist once per cluster: applying them needs {@code rekon.cluster-scoped}. */
    public static boolean clusterScoped(ObjectRef ref) {
        return ref.namespace() == null;
    }
}
