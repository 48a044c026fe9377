package dev.rekon.buildpacks;

import static dev.rekon.buildpacks.Fixtures.bp;
import static dev.rekon.buildpacks.Fixtures.cluster;
import static dev.rekon.buildpacks.Fixtures.image;
import static dev.rekon.buildpacks.Fixtures.ns;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import dev.rekon.buildpacks.plan.BuildpackResolver;
import dev.rekon.buildpacks.plan.Catalog;
import dev.rekon.buildpacks.plan.Resolution;
import dev.rekon.buildpacks.view.BuilderSpecRef;
import dev.rekon.buildpacks.view.ModuleRef;
import dev.rekon.buildpacks.view.OrderEntry;

class BuildpackResolverTest {

    static final String RUST = "127.0.0.1:5000/bp/rust:1";
    static final String GONE = "127.0.0.1:5000/bp/gone:1";

    static final Catalog CATALOG = new Catalog(
            List.of(
                    ns("java-ns", bp("paketo/java@2.0.0", "j2", "paketo/jvm@1.0.0", "paketo/maven@1.1.0"),
                            bp("paketo/jvm@1.0.0", "jvm1"), bp("paketo/maven@1.1.0", "mvn11")),
                    ns("node-ns", bp("paketo/node@1.0.0", "n1")),
                    ns("dotnet-a", bp("paketo/dotnet@1.0.0", "d1")),
                    ns("dotnet-b", bp("paketo/dotnet@1.0.0", "d2"))),
            List.of(
                    cluster("java-cluster", bp("paketo/java@3.0.0", "j3", "paketo/jvm@1.2.0"), bp("paketo/jvm@1.2.0", "jvm12")),
                    cluster("node-cluster", bp("paketo/node@9.0.0", "n9")),
                    cluster("dotnet-cluster", bp("paketo/dotnet@2.0.0", "d20")),
                    cluster("go", bp("paketo/go@1.0.0", "g100"), bp("paketo/go@1.10.0", "g110"), bp("paketo/go@1.9.0", "g190")),
                    cluster("ruby-a", bp("paketo/ruby@1.0.0", "r1")),
                    cluster("ruby-b", bp("paketo/ruby@1.0.0", "r2")),
                    cluster("ruby-c", bp("paketo/ruby@0.9.0", "r09")),
                    cluster("php-a", bp("paketo/php@1.0.0", "p1")),
                    cluster("php-b", bp("paketo/php@1.0.0", "p1")),
                    cluster("python", bp("paketo/python@1.0.0", "py1")),
                    cluster("python-latest", bp("paketo/python@latest", "pyl")),
                    cluster("broken-meta", bp("acme/meta@1.0.0", "m1", "acme/missing@1.0.0"))),
            java.util.Map.of(RUST, image(RUST, bp("acme/rust@1.0.0", "rs1"), bp("acme/cargo@0.1.0", "cg01")),
                    "127.0.0.1:5000/bp/meta-rust:2", image("127.0.0.1:5000/bp/meta-rust:2",
                            bp("acme/rust-meta@2.0.0", "rm2", "acme/rust@2.0.0"), bp("acme/rust@2.0.0", "rs2"))),
            java.util.Map.of(GONE, "manifest unknown: 127.0.0.1:5000/bp/gone:1 does not exist in the registry"));

    static Stream<Arguments> cases() {
        return Stream.of(
                // id only: namespace first, then cluster
                row("id, no version: highest in the namespace", false, BuilderSpecRef.byId("paketo/java", null),
                        "paketo/java@2.0.0 [paketo/java@2.0.0, paketo/jvm@1.0.0, paketo/maven@1.1.0]"),
                row("id in namespace wins over a higher ClusterBuildpack", false, BuilderSpecRef.byId("paketo/node", null),
                        "paketo/node@1.0.0 [paketo/node@1.0.0]"),
                row("id not in namespace: ClusterBuildpack", false, BuilderSpecRef.byId("paketo/php", null),
                        "paketo/php@1.0.0 [paketo/php@1.0.0]"),
                row("ClusterBuilder ignores namespaced Buildpacks", true, BuilderSpecRef.byId("paketo/node", null),
                        "paketo/node@9.0.0 [paketo/node@9.0.0]"),
                row("id + version exactly", false, BuilderSpecRef.byId("paketo/go", "1.9.0"),
                        "paketo/go@1.9.0 [paketo/go@1.9.0]"),
                row("highest is semver, not lexical", false, BuilderSpecRef.byId("paketo/go", null),
                        "paketo/go@1.10.0 [paketo/go@1.10.0]"),
                row("implementation id inside a meta-buildpack matches", false, BuilderSpecRef.byId("paketo/maven", null),
                        "paketo/maven@1.1.0 [paketo/maven@1.1.0]"),
                row("implementation ids across precedence: namespace only", false, BuilderSpecRef.byId("paketo/jvm", null),
                        "paketo/jvm@1.0.0 [paketo/jvm@1.0.0]"),
                row("same id and version with the same diffID is no conflict", false, BuilderSpecRef.byId("paketo/php", "1.0.0"),
                        "paketo/php@1.0.0 [paketo/php@1.0.0]"),
                row("lower version offered once is fine next to an ambiguous higher one", false,
                        BuilderSpecRef.byId("paketo/ruby", "0.9.0"), "paketo/ruby@0.9.0 [paketo/ruby@0.9.0]"),
                row("version only in a ClusterBuildpack is not searched when the namespace has the id", false,
                        BuilderSpecRef.byId("paketo/node", "9.0.0"),
                        "BuildpackNotFound: could not find buildpack with id 'paketo/node' and version '9.0.0'"),
                row("id not found", false, BuilderSpecRef.byId("paketo/nope", null),
                        "BuildpackNotFound: could not find buildpack with id 'paketo/nope'"),
                row("version not found", false, BuilderSpecRef.byId("paketo/go", "2.0.0"),
                        "BuildpackNotFound: could not find buildpack with id 'paketo/go' and version '2.0.0'"),
                row("invalid semver when choosing the latest", false, BuilderSpecRef.byId("paketo/python", null),
                        "InvalidSemver: cannot find buildpack 'paketo/python' with latest version due to invalid semver 'latest'"),
                row("an exact version does not need semver", false, BuilderSpecRef.byId("paketo/python", "latest"),
                        "paketo/python@latest [paketo/python@latest]"),
                row("ambiguous in the cluster: names both", false, BuilderSpecRef.byId("paketo/ruby", null),
                        "AmbiguousBuildpack: buildpack 'paketo/ruby@1.0.0' is provided with different diffIDs by "
                                + "ClusterBuildpack ruby-a (r1), ClusterBuildpack ruby-b (r2); delete one of them or pin "
                                + "the Builder to one with kind and name"),
                row("ambiguous in the namespace with an exact version", false, BuilderSpecRef.byId("paketo/dotnet", "1.0.0"),
                        "AmbiguousBuildpack: buildpack 'paketo/dotnet@1.0.0' is provided with different diffIDs by "
                                + "Buildpack team/dotnet-a (d1), Buildpack team/dotnet-b (d2); delete one of them or pin "
                                + "the Builder to one with kind and name"),
                row("a ClusterBuilder does not see an ambiguity among namespaced Buildpacks", true,
                        BuilderSpecRef.byId("paketo/dotnet", null), "paketo/dotnet@2.0.0 [paketo/dotnet@2.0.0]"),
                // kind + name
                row("Buildpack by name: its root", false, BuilderSpecRef.byResource("Buildpack", "java-ns", null),
                        "paketo/java@2.0.0 [paketo/java@2.0.0, paketo/jvm@1.0.0, paketo/maven@1.1.0]"),
                row("ClusterBuildpack by name: its root", false, BuilderSpecRef.byResource("ClusterBuildpack", "java-cluster", null),
                        "paketo/java@3.0.0 [paketo/java@3.0.0, paketo/jvm@1.2.0]"),
                row("kind + name + id: that id inside", false, BuilderSpecRef.byResource("ClusterBuildpack", "java-cluster", "paketo/jvm"),
                        "paketo/jvm@1.2.0 [paketo/jvm@1.2.0]"),
                row("kind + name pins one of two ambiguous resources", false,
                        BuilderSpecRef.byResource("ClusterBuildpack", "ruby-b", "paketo/ruby"), "paketo/ruby@1.0.0 [paketo/ruby@1.0.0]"),
                row("kind + name + id + version", false,
                        BuilderSpecRef.byResource("ClusterBuildpack", "go", "paketo/go").withVersion("1.0.0"), "paketo/go@1.0.0 [paketo/go@1.0.0]"),
                row("kind + name + id not inside", false, BuilderSpecRef.byResource("ClusterBuildpack", "go", "paketo/java"),
                        "BuildpackNotFound: could not find buildpack with id 'paketo/java'"),
                row("several roots", false, BuilderSpecRef.byResource("ClusterBuildpack", "go", null),
                        "UnexpectedRootBuildpacks: unexpected number of root buildpacks: 3"),
                row("Buildpack name not found", false, BuilderSpecRef.byResource("Buildpack", "nope", null),
                        "BuildpackNotFound: no buildpack with name 'nope'"),
                row("ClusterBuildpack name not found", false, BuilderSpecRef.byResource("ClusterBuildpack", "nope", null),
                        "BuildpackNotFound: no cluster buildpack with name 'nope'"),
                row("Buildpack name not found, with id", false, BuilderSpecRef.byResource("Buildpack", "nope", "x"),
                        "BuildpackNotFound: buildpack not found: nope"),
                row("ClusterBuildpack name not found, with id", false, BuilderSpecRef.byResource("ClusterBuildpack", "nope", "x"),
                        "BuildpackNotFound: cluster buildpack not found: nope"),
                row("ClusterBuilder naming a namespaced Buildpack", true, BuilderSpecRef.byResource("Buildpack", "java-ns", null),
                        "NamespacedBuildpackInClusterBuilder: a ClusterBuilder cannot use the namespaced Buildpack "
                                + "'java-ns'; reference a ClusterBuildpack instead"),
                row("unknown kind", false, BuilderSpecRef.byResource("ClusterStore", "default", null),
                        "InvalidBuildpackReference: kind must be either Buildpack or ClusterBuildpack"),
                row("meta-buildpack whose child is missing", false, BuilderSpecRef.byResource("ClusterBuildpack", "broken-meta", null),
                        "IncompleteBuildpackage: buildpack 'acme/meta@1.0.0' in ClusterBuildpack broken-meta refers to "
                                + "'acme/missing@1.0.0', which its buildpackage does not contain"),
                // image
                row("image: several roots", false, BuilderSpecRef.byImage(RUST),
                        "UnexpectedRootBuildpacks: unexpected number of root buildpacks: 2"),
                row("image + id", false, new BuilderSpecRef("acme/cargo", null, false, null, null, RUST),
                        "acme/cargo@0.1.0 [acme/cargo@0.1.0]"),
                row("image: its root with children", true, BuilderSpecRef.byImage("127.0.0.1:5000/bp/meta-rust:2"),
                        "acme/rust-meta@2.0.0 [acme/rust-meta@2.0.0, acme/rust@2.0.0]"),
                row("image that could not be read", false, BuilderSpecRef.byImage(GONE),
                        "BuildpackageUnreadable: manifest unknown: 127.0.0.1:5000/bp/gone:1 does not exist in the registry"),
                row("image and kind together", false, new BuilderSpecRef(null, null, false, "ClusterBuildpack", "go", RUST),
                        "InvalidBuildpackReference: buildpack reference '" + RUST
                                + "' sets both image and kind/name; use one of image, id, or kind + name"),
                row("nothing set", false, new BuilderSpecRef(null, null, false, null, null, null),
                        "InvalidBuildpackReference: invalid buildpack reference"));
    }

    static Arguments row(String name, boolean clusterBuilder, BuilderSpecRef ref, String expected) {
        return Arguments.of(name, clusterBuilder, ref, expected);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void resolvesOneEntry(String name, boolean clusterBuilder, BuilderSpecRef ref, String expected) {
        assertEquals(expected, render(BuildpackResolver.resolve(clusterBuilder, List.of(List.of(ref)), CATALOG)));
    }

    @Test
    void resolvesGroupsInOrderKeepsOptionalAndListsEachBuildpackOnce() {
        Resolution r = BuildpackResolver.resolve(false, List.of(
                List.of(BuilderSpecRef.byId("paketo/java", null), BuilderSpecRef.byId("paketo/jvm", null).asOptional()),
                List.of(BuilderSpecRef.byId("paketo/node", null))), CATALOG);

        Resolution.Resolved ok = (Resolution.Resolved) r;
        assertEquals(List.of(
                new OrderEntry(List.of(new ModuleRef("paketo/java", "2.0.0", false), new ModuleRef("paketo/jvm", "1.0.0", true))),
                new OrderEntry(List.of(new ModuleRef("paketo/node", "1.0.0", false)))), ok.order());
        assertEquals("paketo/java@2.0.0, paketo/jvm@1.0.0, paketo/maven@1.1.0, paketo/node@1.0.0", keys(ok.metadata()));
        assertEquals("https://example.org/paketo/java", ok.metadata().get(0).homepage());
    }

    @Test
    void theFirstFailingEntryDecides() {
        Resolution r = BuildpackResolver.resolve(false, List.of(
                List.of(BuilderSpecRef.byId("paketo/java", null)),
                List.of(BuilderSpecRef.byId("paketo/nope", null), BuilderSpecRef.byId("paketo/ruby", null))), CATALOG);

        assertEquals(new Resolution.Failed("BuildpackNotFound", "could not find buildpack with id 'paketo/nope'"), r);
    }

    @Test
    void anEmptyOrderResolvesToAnEmptyOrder() {
        assertEquals(new Resolution.Resolved(List.of(), List.of()), BuildpackResolver.resolve(true, List.of(), CATALOG));
    }

    static String render(Resolution r) {
        if (r instanceof Resolution.Failed f) {
            return f.reason() + ": " + f.message();
        }
        Resolution.Resolved ok = (Resolution.Resolved) r;
        return ok.order().get(0).group().get(0).key() + " [" + keys(ok.metadata()) + "]";
    }

    static String keys(List<Resolution.Metadata> metadata) {
        return metadata.stream().map(m -> m.id() + "@" + m.version()).collect(Collectors.joining(", "));
    }
}
