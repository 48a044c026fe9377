package dev.rekon.buildpacks.plan;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import dev.rekon.buildpacks.view.BuildpackEntry;
import dev.rekon.buildpacks.view.BuildpackSource;
import dev.rekon.buildpacks.view.ModuleRef;
import dev.rekon.buildpacks.view.OrderEntry;

/**
 * The meta-buildpack structure inside one buildpackage: a root is a buildpack no other one lists in its order;
 * the descendants of a buildpack are those its order names, transitively, found in the same buildpackage.
 */
final class BuildpackageTree {

    private BuildpackageTree() {
    }

    static List<BuildpackEntry> roots(List<BuildpackEntry> all) {
        Set<String> used = new HashSet<>();
        for (BuildpackEntry e : all) {
            e.order().forEach(o -> o.group().forEach(m -> used.add(m.id())));
        }
        return all.stream().filter(e -> !used.contains(e.id())).toList();
    }

    /** The buildpack itself first, then its descendants depth-first in order of appearance. */
    static List<BuildpackEntry> withDescendants(BuildpackEntry top, BuildpackSource source) {
        List<BuildpackEntry> out = new ArrayList<>();
        walk(top, source, out, new HashSet<>());
        return out;
    }

    private static void walk(BuildpackEntry e, BuildpackSource source, List<BuildpackEntry> out, Set<String> seen) {
        if (!seen.add(e.key())) {
            return;
        }
        out.add(e);
        for (OrderEntry o : e.order()) {
            for (ModuleRef m : o.group()) {
                walk(child(e, m, source), source, out, seen);
            }
        }
    }

    private static BuildpackEntry child(BuildpackEntry parent, ModuleRef m, BuildpackSource source) {
        List<BuildpackEntry> matches = source.buildpacks().stream()
                .filter(b -> b.id().equals(m.id()) && (m.version() == null || m.version().equals(b.version())))
                .toList();
        if (matches.size() != 1) {
            throw new BuildpackResolver.Failure(BuildpackResolver.INCOMPLETE, "buildpack '" + parent.key() + "' in "
                    + source + " refers to '" + m.id() + (m.version() == null ? "" : "@" + m.version())
                    + "', which " + (matches.isEmpty() ? "its buildpackage does not contain" : "is ambiguous there"));
        }
        return matches.get(0);
    }
}
