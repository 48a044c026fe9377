package dev.rekon.buildpacks;

import static dev.rekon.buildpacks.Fixtures.bp;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import dev.rekon.buildpacks.plan.AffectedBuilders;
import dev.rekon.buildpacks.view.BuilderSpecRef;
import dev.rekon.buildpacks.view.BuilderView;
import dev.rekon.buildpacks.view.BuildpackSource;

class AffectedBuildersTest {

    static BuilderView builder(String kind, String namespace, String name, BuilderSpecRef ref) {
        return new BuilderView(kind, namespace, name, 1, List.of(List.of(ref)), null, null, null);
    }

    static final List<BuilderView> BUILDERS = List.of(
            builder("Builder", "team", "by-id", BuilderSpecRef.byId("paketo/java", null)),
            builder("Builder", "team", "by-child-id", BuilderSpecRef.byId("paketo/jvm", null)),
            builder("Builder", "other", "other-ns", BuilderSpecRef.byId("paketo/java", null)),
            builder("Builder", "team", "by-name", BuilderSpecRef.byResource("Buildpack", "java", null)),
            builder("Builder", "team", "by-cluster-name", BuilderSpecRef.byResource("ClusterBuildpack", "java", null)),
            builder("Builder", "team", "unrelated", BuilderSpecRef.byId("paketo/node", null)),
            builder("Builder", "team", "by-image", new BuilderSpecRef("paketo/java", null, false, null, null, "r/java:1")),
            builder("ClusterBuilder", null, "cluster-by-id", BuilderSpecRef.byId("paketo/java", null)),
            builder("ClusterBuilder", null, "cluster-old-id", BuilderSpecRef.byId("paketo/old", null)));

    @ParameterizedTest(name = "{0} {1}: {3}")
    @CsvSource(delimiter = '|', value = {
            "Buildpack        | team | paketo/java@2.0.0   | by-id by-child-id by-name",
            "Buildpack        | other | paketo/java@2.0.0  | other-ns",
            "ClusterBuildpack |      | paketo/java@2.0.0   | by-id by-child-id other-ns by-cluster-name cluster-by-id",
            "ClusterBuildpack |      | paketo/old@1.0.0    | by-id by-child-id other-ns by-cluster-name cluster-by-id cluster-old-id",
    })
    void selectsBuildersByNameOrByAnIdProvidedBeforeOrAfter(String kind, String namespace, String before, String expected) {
        BuildpackSource old = new BuildpackSource(kind, namespace, "java", List.of(bp(before, "x")));
        BuildpackSource now = new BuildpackSource(kind, namespace, "java", List.of(
                bp("paketo/java@2.1.0", "j21", "paketo/jvm@1.1.0"), bp("paketo/jvm@1.1.0", "jvm11")));

        List<String> names = AffectedBuilders.select(BUILDERS, old, now).stream().map(BuilderView::name).toList();

        assertEquals(List.of(expected.split(" ")), names);
    }
}
