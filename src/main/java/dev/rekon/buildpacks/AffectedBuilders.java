package dev.rekon.buildpacks;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Which Builders a change of one Buildpack or ClusterBuildpack can re-resolve differently, decided from specs
 * and statuses alone: those naming the resource by kind + name, or naming by id a buildpack it provided before
 * or provides now. A Buildpack only matters to Builders of its namespace; a ClusterBuildpack to all Builders and
 * ClusterBuilders. Entries naming an image never depend on these resources.
 */
public final class AffectedBuilders {

    private AffectedBuilders() {
    }

    /** @param before the resource's buildpacks before the change; {@code after} those after (empty when deleted) */
    public static List<BuilderView> select(List<BuilderView> builders, BuildpackSource before, BuildpackSource after) {
        Set<String> ids = new HashSet<>();
        before.buildpacks().forEach(b -> ids.add(b.id()));
        after.buildpacks().forEach(b -> ids.add(b.id()));
        return builders.stream().filter(b -> inScope(b, after) && mentions(b, after, ids)).toList();
    }

    /** Every Builder the resource could matter to, for when its earlier buildpacks are unknown (deleted, Ref mode). */
    public static List<BuilderView> inScope(List<BuilderView> builders, BuildpackSource changed) {
        return builders.stream().filter(b -> inScope(b, changed)).toList();
    }

    private static boolean inScope(BuilderView b, BuildpackSource changed) {
        if (BuildpackSource.CLUSTER_BUILDPACK.equals(changed.kind())) {
            return true;
        }
        return !b.isClusterBuilder() && changed.namespace() != null && changed.namespace().equals(b.namespace());
    }

    private static boolean mentions(BuilderView b, BuildpackSource changed, Set<String> ids) {
        return b.order().stream().flatMap(List::stream).filter(r -> !r.hasImage()).anyMatch(r -> r.hasKindOrName()
                ? changed.kind().equals(r.kind()) && changed.name().equals(r.name())
                : r.hasId() && ids.contains(r.id()));
    }
}
