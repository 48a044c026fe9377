package dev.rekon.testing;

import java.util.Set;

import dev.rekon.cluster.InstalledKinds;

/** {@link InstalledKinds} without a cluster, for tables: every optional kind served, or all but some. */
public final class ServedKinds {

    private ServedKinds() {
    }

    public static InstalledKinds all() {
        return allBut(Set.of());
    }

    /** Every optional kind but these (by CRD name, e.g. {@code kymas.operator.kyma-project.io}). */
    public static InstalledKinds allBut(Set<String> missingCrds) {
        return new InstalledKinds() {
            @Override
            public boolean installed(Kind kind) {
                return !missingCrds.contains(kind.crd());
            }
        };
    }
}
