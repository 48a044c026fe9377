package dev.rekon.buildpacks;

import java.util.ArrayList;
import java.util.List;

import dev.rekon.buildpacks.view.BuildpackEntry;
import dev.rekon.buildpacks.view.BuildpackSource;
import dev.rekon.buildpacks.view.ModuleRef;
import dev.rekon.buildpacks.view.OrderEntry;

/** Small builders for buildpack entries and sources in planner tests. */
final class Fixtures {

    private Fixtures() {
    }

    /** {@code "id@version"}, with {@code children} ("id@version") as its single order group when given. */
    static BuildpackEntry bp(String key, String diffId, String... children) {
        String[] iv = key.split("@", 2);
        List<ModuleRef> group = new ArrayList<>();
        for (String c : children) {
            String[] civ = c.split("@", 2);
            group.add(new ModuleRef(civ[0], civ[1], false));
        }
        return new BuildpackEntry(iv[0], iv[1], null, null, diffId, "sha256:layer-" + diffId, 100, "0.7",
                "https://example.org/" + iv[0], group.isEmpty() ? List.of() : List.of(new OrderEntry(group)), List.of());
    }

    static BuildpackSource ns(String name, BuildpackEntry... entries) {
        return new BuildpackSource(BuildpackSource.BUILDPACK, "team", name, List.of(entries));
    }

    static BuildpackSource cluster(String name, BuildpackEntry... entries) {
        return new BuildpackSource(BuildpackSource.CLUSTER_BUILDPACK, null, name, List.of(entries));
    }

    static BuildpackSource image(String image, BuildpackEntry... entries) {
        return new BuildpackSource(BuildpackSource.IMAGE, null, image, List.of(entries));
    }
}
