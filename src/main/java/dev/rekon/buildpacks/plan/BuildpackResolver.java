package dev.rekon.buildpacks.plan;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

import dev.rekon.buildpacks.view.BuilderSpecRef;
import dev.rekon.buildpacks.view.BuildpackEntry;
import dev.rekon.buildpacks.view.BuildpackSource;
import dev.rekon.buildpacks.view.ModuleRef;
import dev.rekon.buildpacks.view.OrderEntry;
import dev.rekon.core.SemVer;

/**
 * Resolves a Builder's or ClusterBuilder's {@code spec.order} against a {@link Catalog} (kpack RFC 0009):
 * <ul>
 * <li>{@code id} only: the Buildpacks of the Builder's namespace first; only when none of them provides the id,
 * the ClusterBuildpacks. Without a version the highest semver wins, with one exactly that version. Ids of the
 * buildpacks inside a meta-buildpackage match too.</li>
 * <li>{@code kind} + {@code name}: the single root buildpack of that resource; with {@code id}, that id in it.</li>
 * <li>{@code image}: the root buildpack of that buildpackage (or {@code id} in it).</li>
 * </ul>
 * Several sources of the same precedence offering the selected id and version with different diffIDs is an
 * error naming them; so is a ClusterBuilder naming a namespaced Buildpack. Pure: no I/O.
 */
public final class BuildpackResolver {

    public static final String INVALID_REFERENCE = "InvalidBuildpackReference";
    public static final String NOT_FOUND = "BuildpackNotFound";
    public static final String INVALID_SEMVER = "InvalidSemver";
    public static final String AMBIGUOUS = "AmbiguousBuildpack";
    public static final String NAMESPACED_IN_CLUSTER_BUILDER = "NamespacedBuildpackInClusterBuilder";
    public static final String ROOTS = "UnexpectedRootBuildpacks";
    public static final String UNREADABLE = "BuildpackageUnreadable";
    public static final String INCOMPLETE = "IncompleteBuildpackage";

    private final boolean clusterBuilder;
    private final Catalog catalog;

    private BuildpackResolver(boolean clusterBuilder, Catalog catalog) {
        this.clusterBuilder = clusterBuilder;
        this.catalog = catalog;
    }

    /** @param clusterBuilder true for a ClusterBuilder, which may only use ClusterBuildpacks and images */
    public static Resolution resolve(boolean clusterBuilder, List<List<BuilderSpecRef>> order, Catalog catalog) {
        BuildpackResolver r = new BuildpackResolver(clusterBuilder, catalog);
        List<OrderEntry> resolved = new ArrayList<>();
        Map<String, Resolution.Metadata> metadata = new LinkedHashMap<>();
        try {
            for (List<BuilderSpecRef> group : order) {
                List<ModuleRef> refs = new ArrayList<>();
                for (BuilderSpecRef ref : group) {
                    Candidate c = r.resolveOne(ref);
                    refs.add(new ModuleRef(c.entry.id(), c.entry.version(), ref.optional()));
                    collectMetadata(c, metadata);
                }
                resolved.add(new OrderEntry(refs));
            }
        } catch (Failure f) {
            return new Resolution.Failed(f.reason, f.getMessage());
        }
        return new Resolution.Resolved(resolved, List.copyOf(metadata.values()));
    }

    private Candidate resolveOne(BuilderSpecRef ref) {
        if (ref.hasImage()) {
            if (ref.hasKindOrName()) {
                throw new Failure(INVALID_REFERENCE, "buildpack reference '" + ref.image()
                        + "' sets both image and kind/name; use one of image, id, or kind + name");
            }
            BuildpackSource image = image(ref.image());
            return ref.hasId() ? select(ref, candidates(ref.id(), List.of(image))) : root(image);
        }
        if (ref.hasKindOrName()) {
            BuildpackSource source = resource(ref);
            return ref.hasId() ? select(ref, candidates(ref.id(), List.of(source))) : root(source);
        }
        if (ref.hasId()) {
            List<Candidate> found = candidates(ref.id(), clusterBuilder ? List.of() : catalog.buildpacks());
            if (found.isEmpty()) {
                found = candidates(ref.id(), catalog.clusterBuildpacks());
            }
            return select(ref, found);
        }
        throw new Failure(INVALID_REFERENCE, "invalid buildpack reference");
    }

    private BuildpackSource image(String image) {
        String error = catalog.unreadableImages().get(image);
        if (error != null) {
            throw new Failure(UNREADABLE, error);
        }
        BuildpackSource source = catalog.images().get(image);
        if (source == null) {
            throw new Failure(UNREADABLE, "buildpackage image '" + image + "' was not read");
        }
        return source;
    }

    private BuildpackSource resource(BuilderSpecRef ref) {
        boolean withId = ref.hasId();
        if (BuildpackSource.BUILDPACK.equals(ref.kind())) {
            if (clusterBuilder) {
                throw new Failure(NAMESPACED_IN_CLUSTER_BUILDER, "a ClusterBuilder cannot use the namespaced Buildpack '"
                        + ref.name() + "'; reference a ClusterBuildpack instead");
            }
            return named(catalog.buildpacks(), ref.name()).orElseThrow(() -> new Failure(NOT_FOUND,
                    withId ? "buildpack not found: " + ref.name() : "no buildpack with name '" + ref.name() + "'"));
        }
        if (BuildpackSource.CLUSTER_BUILDPACK.equals(ref.kind())) {
            return named(catalog.clusterBuildpacks(), ref.name()).orElseThrow(() -> new Failure(NOT_FOUND,
                    withId ? "cluster buildpack not found: " + ref.name()
                            : "no cluster buildpack with name '" + ref.name() + "'"));
        }
        throw new Failure(INVALID_REFERENCE, "kind must be either Buildpack or ClusterBuildpack");
    }

    private static Optional<BuildpackSource> named(List<BuildpackSource> sources, String name) {
        return sources.stream().filter(s -> s.name().equals(name)).findFirst();
    }

    private static List<Candidate> candidates(String id, List<BuildpackSource> sources) {
        // Sorting the few matches rather than every source gives the same order: the sort is stable.
        return sources.stream()
                .flatMap(s -> s.buildpacks().stream().filter(b -> b.id().equals(id)).map(b -> new Candidate(b, s)))
                .sorted(Comparator.comparing(c -> c.source.toString()))
                .toList();
    }

    private static Candidate root(BuildpackSource source) {
        List<BuildpackEntry> roots = BuildpackageTree.roots(source.buildpacks());
        if (roots.size() != 1) {
            throw new Failure(ROOTS, "unexpected number of root buildpacks: " + roots.size());
        }
        return new Candidate(roots.get(0), source);
    }

    private static Candidate select(BuilderSpecRef ref, List<Candidate> found) {
        if (found.isEmpty()) {
            throw new Failure(NOT_FOUND, "could not find buildpack with id '" + ref.id() + "'");
        }
        List<Candidate> chosen = ref.hasVersion() ? exactly(ref, found) : highest(found);
        return unambiguous(chosen);
    }

    private static List<Candidate> exactly(BuilderSpecRef ref, List<Candidate> found) {
        List<Candidate> chosen = found.stream().filter(c -> ref.version().equals(c.entry.version())).toList();
        if (chosen.isEmpty()) {
            throw new Failure(NOT_FOUND, "could not find buildpack with id '" + ref.id() + "' and version '"
                    + ref.version() + "'");
        }
        return chosen;
    }

    private static List<Candidate> highest(List<Candidate> found) {
        for (Candidate c : found) {
            if (SemVer.tryParse(c.entry.version()).isEmpty()) {
                throw new Failure(INVALID_SEMVER, "cannot find buildpack '" + c.entry.id()
                        + "' with latest version due to invalid semver '" + c.entry.version() + "'");
            }
        }
        SemVer max = found.stream().map(c -> SemVer.parse(c.entry.version())).max(Comparator.naturalOrder()).orElseThrow();
        return found.stream().filter(c -> SemVer.parse(c.entry.version()).compareTo(max) == 0).toList();
    }

    private static Candidate unambiguous(List<Candidate> chosen) {
        Map<String, List<Candidate>> byDiffId = chosen.stream()
                .collect(Collectors.groupingBy(c -> String.valueOf(c.entry.diffId()), LinkedHashMap::new, Collectors.toList()));
        if (byDiffId.size() > 1) {
            BuildpackEntry e = chosen.get(0).entry;
            String offers = chosen.stream().map(c -> c.source + " (" + c.entry.diffId() + ")")
                    .collect(Collectors.joining(", "));
            throw new Failure(AMBIGUOUS, "buildpack '" + e.key() + "' is provided with different diffIDs by " + offers
                    + "; delete one of them or pin the Builder to one with kind and name");
        }
        return chosen.get(0);
    }

    private static void collectMetadata(Candidate c, Map<String, Resolution.Metadata> into) {
        for (BuildpackEntry e : BuildpackageTree.withDescendants(c.entry, c.source)) {
            into.putIfAbsent(e.key(), new Resolution.Metadata(e.id(), e.version(), e.homepage()));
        }
    }

    private record Candidate(BuildpackEntry entry, BuildpackSource source) {
    }

    /** Ends resolution at the first entry that cannot be resolved. */
    static final class Failure extends RuntimeException {
        final String reason;

        Failure(String reason, String message) {
            super(message, null, false, false);
            this.reason = reason;
        }
    }
}
