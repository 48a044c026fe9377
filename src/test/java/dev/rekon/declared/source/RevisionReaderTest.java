package dev.rekon.declared.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class RevisionReaderTest {

    private static final String CM = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: %s\n";

    /** Files (path, content, path, content...) and the documents expected as {@code file:line kind/name}. */
    static Stream<Arguments> readable() {
        return Stream.of(
                Arguments.of("one document", files("a.yaml", CM.formatted("a")), List.of("a.yaml:1 ConfigMap/a")),
                Arguments.of("several documents, empty ones skipped",
                        files("a.yaml", "---\n" + CM.formatted("a") + "---\n# only a comment\n---\n"
                                + CM.formatted("b") + "...\n---\n~\n"),
                        List.of("a.yaml:2 ConfigMap/a", "a.yaml:9 ConfigMap/b")),
                Arguments.of("List unwrapped into its items, each with its line",
                        files("list.yml", "apiVersion: v1\nkind: List\nitems:\n- " + CM.formatted("x")
                                .replace("\n", "\n  ").trim() + "\n- apiVersion: v1\n  kind: Secret\n  metadata: "
                                + "{name: y}\n"),
                        List.of("list.yml:4 ConfigMap/x", "list.yml:8 Secret/y")),
                Arguments.of("JSON, and a JSON List",
                        files("b.json", "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"j\"}}",
                                "c.json", "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMapList\",\"items\":[{\"apiVersion"
                                        + "\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"k\"}}]}"),
                        List.of("b.json:1 ConfigMap/j", "c.json:1 ConfigMap/k")),
                Arguments.of("other files and dot folders ignored, path order kept",
                        files("z/README.md", "# hi", "z/b.yaml", CM.formatted("zb"), "a/x.txt", "x",
                                ".github/workflows/ci.yml", "on: push\n", "a/c.YAML", CM.formatted("ac")),
                        List.of("a/c.YAML:1 ConfigMap/ac", "z/b.yaml:1 ConfigMap/zb")),
                Arguments.of("anchors and merge keys resolved",
                        files("m.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: m\n  labels: &l {a: "
                                + "'1'}\n  annotations:\n    <<: *l\n    b: '2'\n"),
                        List.of("m.yaml:1 ConfigMap/m")),
                Arguments.of("an empty file", files("e.yaml", ""), List.of()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("readable")
    void reads(String name, SortedMap<String, byte[]> files, List<String> expected) {
        List<DeclaredDocument> docs = RevisionReader.readAll(SourceLimits.DEFAULTS, files);
        assertEquals(expected, docs.stream().map(d -> d.where() + " " + d.object().get("kind").asText() + "/"
                + d.object().path("metadata").path("name").asText()).collect(Collectors.toList()));
    }

    /**
     * Every readable revision again, holding nothing: each document keeps its identity, and reading it again gives
     * the same whole object as holding it did; a CRD stays whole.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("readable")
    void readAgainWhenNotHeld(String name, SortedMap<String, byte[]> files, List<String> expected) {
        List<DeclaredDocument> held = RevisionReader.readAll(SourceLimits.DEFAULTS, files);
        RevisionReader reader = new RevisionReader(SourceLimits.DEFAULTS).holding(0);
        int[] reads = new int[1];
        files.forEach((path, content) -> {
            if (reader.accept(path, content.length)) {
                reader.read(path, content, () -> {
                    reads[0]++;
                    return content;
                });
            }
        });
        List<DeclaredDocument> identities = reader.documents();
        assertEquals(held.size(), identities.size());
        for (int i = 0; i < held.size(); i++) {
            DeclaredDocument d = identities.get(i);
            assertEquals(held.get(i).where(), d.where());
            assertTrue(d.body() != null && !d.object().has("data"), d.where() + " keeps its identity alone");
            assertEquals(held.get(i).object().get("metadata"), d.object().get("metadata"));
            assertEquals(held.get(i).object(), d.whole(), d.where() + " read again");
        }
        assertTrue(reads[0] <= files.size(), "each file read again once while its documents are used in turn");
    }

    @org.junit.jupiter.api.Test
    void heldUpToTheBytesGivenAndCrdsAlwaysWhole() {
        String crd = "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: "
                + "xs.example.com\nspec:\n  group: example.com\n  scope: Cluster\n  names: {kind: X, plural: xs}\n";
        String withData = CM.formatted("b") + "data:\n  k: v\n";
        RevisionReader reader = new RevisionReader(SourceLimits.DEFAULTS).holding(CM.formatted("a").length());
        reader.read("a.yaml", CM.formatted("a").getBytes(StandardCharsets.UTF_8), () -> {
            throw new AssertionError("a held document is not read again");
        });
        reader.read("b.yaml", withData.getBytes(StandardCharsets.UTF_8), () -> withData.getBytes(StandardCharsets.UTF_8));
        reader.read("c.yaml", crd.getBytes(StandardCharsets.UTF_8), () -> crd.getBytes(StandardCharsets.UTF_8));
        List<DeclaredDocument> docs = reader.documents();
        assertEquals(null, docs.get(0).body());
        assertTrue(docs.get(1).body() != null && !docs.get(1).object().has("data"));
        assertEquals("v", docs.get(1).whole().path("data").path("k").asText());
        assertEquals(null, docs.get(2).body(), "a CRD is held whole: the objects after it are planned from it");
        assertEquals("Cluster", docs.get(2).object().path("spec").path("scope").asText());
    }

    /** Files, limits, the reason expected and what the message must contain. */
    static Stream<Arguments> refused() {
        String bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + Stream.iterate(1, i -> i + 1).limit(8)
                .map(i -> "b" + i + ": &b" + i + " [" + ("*" + (i == 1 ? "a" : "b" + (i - 1)) + ", ").repeat(5) + "z]")
                .collect(Collectors.joining("\n")) + "\n";
        String pairBomb = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: p}\nl0: &l0 [x, x]\n" + Stream
                .iterate(1, i -> i + 1).limit(24).map(i -> "l" + i + ": &l" + i + " [*l" + (i - 1) + ", *l" + (i - 1)
                        + "]").collect(Collectors.joining("\n")) + "\n";
        String many = (CM.formatted("n") + "---\n").repeat(11);
        SourceLimits small = new SourceLimits(2, 1000, 1500, 10);
        return Stream.of(
                Arguments.of(files("k/kustomization.yaml", "resources: []\n"), SourceLimits.DEFAULTS,
                        "KustomizeUnsupported", "k/kustomization.yaml: Rekon applies plain manifests"),
                Arguments.of(files("k/Kustomization", "resources: []\n"), SourceLimits.DEFAULTS,
                        "KustomizeUnsupported", "commit the rendered output"),
                Arguments.of(files("bad.yaml", CM.formatted("a") + "---\napiVersion: v1\nkind: [\n"),
                        SourceLimits.DEFAULTS, "ParseError", "bad.yaml:"),
                Arguments.of(files("dup.yaml", CM.formatted("a") + "kind: Secret\n"), SourceLimits.DEFAULTS,
                        "ParseError", "dup.yaml:5: duplicate key 'kind'"),
                Arguments.of(files("bad.json", "{\n\"apiVersion\": \"v1\",\n\"kind\": }\n"), SourceLimits.DEFAULTS,
                        "ParseError", "bad.json:3: not valid JSON"),
                Arguments.of(files("nokind.yaml", CM.formatted("a") + "---\napiVersion: v1\nmetadata: {name: b}\n"),
                        SourceLimits.DEFAULTS, "ParseError", "nokind.yaml:6: a Kubernetes object needs apiVersion, "
                                + "kind and metadata.name; this document has no kind"),
                Arguments.of(files("noname.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {}\n"),
                        SourceLimits.DEFAULTS, "ParseError", "this ConfigMap has no metadata.name"),
                Arguments.of(files("s.yaml", "- a\n- b\n"), SourceLimits.DEFAULTS, "NotAnObject", "s.yaml:1:"),
                Arguments.of(files("bomb.yaml", bomb), SourceLimits.DEFAULTS, "AliasLimit", "bomb.yaml"),
                Arguments.of(files("pairs.yaml", pairBomb), SourceLimits.DEFAULTS, "AliasLimit", "pairs.yaml:"),
                Arguments.of(files("r.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: r}\nx: &r [*r]\n"),
                        SourceLimits.DEFAULTS, "AliasLimit", "refers to a node that contains it"),
                Arguments.of(files("big.yaml", "#".repeat(1001)), small, "TooLarge",
                        "big.yaml: the file is 1001 bytes, more than the 1000 allowed"),
                Arguments.of(files("a.yaml", "#".repeat(800), "b.yaml", "#".repeat(800)), small, "TooLarge",
                        "b.yaml: with this file the manifests pass 1500 bytes"),
                Arguments.of(files("a.yaml", "", "b.yaml", "", "c.json", "", "d.txt", ""), small, "TooManyFiles",
                        "c.json: the revision holds more than 2 manifest files"),
                Arguments.of(files("many.yaml", many), small, "TooManyObjects", "many.yaml:51: the revision holds "
                        + "more than 10 objects"),
                Arguments.of(files("list.yaml", "apiVersion: v1\nkind: List\nitems:\n" + "- {}\n".repeat(11)), small,
                        "TooManyObjects", "list.yaml:1:"),
                Arguments.of(files("huge.yaml", "#".repeat(20_000_000)), SourceLimits.DEFAULTS, "TooLarge",
                        "huge.yaml: the file is 20000000 bytes"),
                Arguments.of(files("list.yaml", "apiVersion: v1\nkind: List\nitems:\n" + "- {}\n".repeat(100_000)),
                        SourceLimits.DEFAULTS, "TooManyObjects", "more than 10000 objects"),
                Arguments.of(files("docs.yaml", "---\n{apiVersion: v1, kind: C, metadata: {name: a}}\n"
                        .repeat(100_000)), SourceLimits.DEFAULTS, "TooLarge", "more than the 4194304 allowed"),
                Arguments.of(files("a.yaml", "---\n{apiVersion: v1, kind: C, metadata: {name: a}}\n".repeat(6_000),
                        "b.yaml", "---\n{apiVersion: v1, kind: C, metadata: {name: a}}\n".repeat(6_000)),
                        SourceLimits.DEFAULTS, "TooManyObjects", "b.yaml:8002: the revision holds more than 10000"));
    }

    @ParameterizedTest(name = "{2}: {3}")
    @MethodSource("refused")
    void refuses(SortedMap<String, byte[]> files, SourceLimits limits, String reason, String message) {
        RevisionRefusedException e = assertThrows(RevisionRefusedException.class,
                () -> RevisionReader.readAll(limits, files));
        assertEquals(reason, e.reason(), e.getMessage());
        assertTrue(e.getMessage().contains(message), e.getMessage());
        assertEquals(0, e.code());
    }

    private static SortedMap<String, byte[]> files(String... pathsAndContents) {
        SortedMap<String, byte[]> files = new TreeMap<>();
        for (int i = 0; i < pathsAndContents.length; i += 2) {
            files.put(pathsAndContents[i], pathsAndContents[i + 1].getBytes(StandardCharsets.UTF_8));
        }
        return files;
    }
}
