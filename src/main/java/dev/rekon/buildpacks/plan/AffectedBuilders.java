package dev.rekon.buildpacks.plan;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import dev.rekon.buildpacks.view.BuilderView;
import dev.rekon.buildpacks.view.BuildpackSource;
import dev.rekon.registry.ImageReference;

/**
 * Which Builders a change of one Buildpack or ClusterBuildpack can re-resolve differently, decided from specs
 * and statuses alone: those naming the resource by kind + name, or naming by id a buildpack it provided before
 * or provides now. A Buildpack only matters to Builders of its namespace; a ClusterBuildpack to all Builders and
 * ClusterBuilders. Entries naming an image never depend on these resources. It also decides the index keys
 * under which Builders are found again: every Builder {@link #select} may pick is under one of
 * {@link #keysFor}.
 */
public final class AffectedBuilders {

    private static final String ID = "id:";
    private static final String RESOURCE = "resource:";
    private static final String IMAGE = "image:";

    private AffectedBuilders() {
    }

    /** @param before the resource's buildpacks before the change; {@code after} those after (empty when deleted) */
    public static List<BuilderView> select(List<BuilderView> builders, BuildpackSource before, BuildpackSource after) {
        Set<String> ids = ids(before, after);
        return builders.stream().filter(b -> inScope(b, after) && mentions(b, after, ids)).toList();
    }

    /** Every Builder the resource could matter to, for when its earlier buildpacks are unknown (deleted, Ref mode). */
    public static List<BuilderView> inScope(List<BuilderView> builders, BuildpackSource changed) {
        return builders.stream().filter(b -> inScope(b, changed)).toList();
    }

    /** The index keys of a Builder: the ids, resources and image repositories its order names. */
    public static Set<String> keysOf(BuilderView b) {
        Set<String> keys = new HashSet<>();
        b.order().stream().flatMap(List::stream).forEach(r -> {
            if (r.hasImage()) {
                String repository = repositoryOf(r.image());
                if (repository != null) {
                    keys.add(forRepository(repository));
                }
            } else if (r.hasKindOrName()) {
                keys.add(RESOURCE + r.kind() + "/" + r.name());
            } else if (r.hasId()) {
                keys.add(ID + r.id());
            }
        });
        return keys;
    }

    /** The index keys under which every Builder {@link #select} may pick for this change is found. */
    public static Set<String> keysFor(BuildpackSource before, BuildpackSource after) {
        Set<String> keys = new HashSet<>();
        keys.add(RESOURCE + after.kind() + "/" + after.name());
        ids(before, after).forEach(id -> keys.add(ID + id));
        return keys;
    }

    /** The index key of the Builders naming an image of this repository directly. */
    public static String forRepository(String repositoryKey) {
        return IMAGE + repositoryKey;
    }

    /** The repository of an image reference (registry and path, no tag or digest); null when it does not parse. */
    public static String repositoryOf(String image) {
        try {
            return image == null ? null : ImageReference.parse(image).repositoryKey();
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static Set<String> ids(BuildpackSource before, BuildpackSource after) {
        Set<String> ids = new HashSet<>();
        before.buildpacks().forEach(b -> ids.add(b.id()));
        after.buildpacks().forEach(b -> ids.add(b.id()));
        return ids;
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
