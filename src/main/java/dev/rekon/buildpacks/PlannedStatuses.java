package dev.rekon.buildpacks;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

import dev.rekon.buildpacks.catalog.BuildpackCatalog;
import dev.rekon.buildpacks.view.BuildpackSource;

/**
 * In a report-mode buildpacks pass, what its refreshes would write, as Builders resolve against it: the catalog's
 * buildpacks with each refreshed one as its plan leaves it (left out when the refresh found it gone). A writing
 * pass adds nothing here: each refresh tells the catalog what it wrote, and the Builders after it read that. So a
 * report plans each Builder against the statuses the writing pass would resolve it against.
 */
final class PlannedStatuses {

    private final BuildpackCatalog catalog;
    /** By kind, namespace and name: the buildpacks a planned refresh leaves (empty: it found the object gone). */
    private final Map<String, Optional<BuildpackSource>> planned = new LinkedHashMap<>();
    /** The namespaces (null: the ClusterBuildpacks) those are in. */
    private final Set<String> touched = new HashSet<>();

    PlannedStatuses(BuildpackCatalog catalog) {
        this.catalog = catalog;
    }

    /** Records what a refresh's plan (made, not written) leaves of its Buildpack. */
    void planned(BuildpackReconciler.Plan plan) {
        BuildpackSource left = plan.provides();
        planned.put(key(left), plan.status() == null ? Optional.empty() : Optional.of(left));
        touched.add(namespaceOf(left));
    }

    /**
     * The buildpacks by namespace (null: the ClusterBuildpacks) as {@link BuilderReconciler.Key#sources} shares
     * them, filled in for the namespaces a planned refresh touches; the others are looked up in the catalog.
     */
    Map<String, List<BuildpackSource>> sources() {
        Map<String, List<BuildpackSource>> sources = new HashMap<>();
        touched.forEach(ns -> sources.put(ns, overlay(ns)));
        return sources;
    }

    private List<BuildpackSource> overlay(String namespace) {
        String kind = namespace == null ? BuildpackSource.CLUSTER_BUILDPACK : BuildpackSource.BUILDPACK;
        List<BuildpackSource> result = new ArrayList<>();
        Map<String, Optional<BuildpackSource>> left = new LinkedHashMap<>(planned);
        for (BuildpackSource s : catalog.sources(kind, namespace)) {
            Optional<BuildpackSource> p = left.remove(key(s));
            if (p == null) {
                result.add(s);
            } else {
                p.ifPresent(result::add);
            }
        }
        left.values().forEach(p -> p.filter(s -> kind.equals(s.kind()) && Objects.equals(namespace,
                namespaceOf(s))).ifPresent(result::add));
        return result;
    }

    private static String namespaceOf(BuildpackSource s) {
        return BuildpackSource.CLUSTER_BUILDPACK.equals(s.kind()) ? null : s.namespace();
    }

    private static String key(BuildpackSource s) {
        return s.kind() + "/" + (s.namespace() == null ? "" : s.namespace()) + "/" + s.name();
    }
}
