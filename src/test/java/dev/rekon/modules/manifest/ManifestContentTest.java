package dev.rekon.modules.manifest;

import static dev.rekon.modules.manifest.ManifestFixtures.bytes;
import static dev.rekon.modules.manifest.ManifestFixtures.gzip;
import static dev.rekon.modules.manifest.ManifestFixtures.tar;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import com.fasterxml.jackson.databind.node.ObjectNode;

class ManifestContentTest {

    private static List<String> names(List<ObjectNode> objects) {
        return objects.stream().map(o -> o.path("kind").asText() + "/" + o.path("metadata").path("name").asText()).toList();
    }

    @Test
    void aYamlStreamGivesItsObjectsInOrderSkippingEmptyDocuments() throws Exception {
        String yaml = "---\n" + ManifestFixtures.MODULE_YAML + "---\n---\n# only a comment\n---\n";
        assertEquals(List.of("Namespace/kpack", "ServiceAccount/controller", "ConfigMap/config"),
                names(ManifestContent.objects(bytes(yaml))));
    }

    @Test
    void aJsonDocumentIsYamlToo() throws Exception {
        assertEquals(List.of("ConfigMap/c"), names(ManifestContent.objects(bytes(
                "{\"apiVersion\": \"v1\", \"kind\": \"ConfigMap\", \"metadata\": {\"name\": \"c\"}}"))));
    }

    private static byte[] moduleTar() {
        Map<String, String> files = new LinkedHashMap<>();
        files.put("manifests/20-rbac.yaml", "apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: sa, namespace: kpack}\n");
        files.put("manifests/README.md", "not a manifest: ignored");
        files.put("manifests/10-namespace.yml", "apiVersion: v1\nkind: Namespace\nmetadata: {name: kpack}\n---\n");
        files.put("manifests/" + "deep/".repeat(30) + "30-config.yaml",
                "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: config, namespace: kpack}\n");
        return tar(files);
    }

    @Test
    void aTarGivesItsYamlFilesInPathOrderLongNamesIncluded() throws Exception {
        assertEquals(List.of("Namespace/kpack", "ServiceAccount/sa", "ConfigMap/config"),
                names(ManifestContent.objects(moduleTar())));
    }

    @Test
    void aGzippedTarIsUnpackedFirst() throws Exception {
        assertEquals(List.of("Namespace/kpack", "ServiceAccount/sa", "ConfigMap/config"),
                names(ManifestContent.objects(gzip(moduleTar()))));
    }

    @Test
    void aGzippedYamlStreamIsReadToo() throws Exception {
        assertEquals(3, ManifestContent.objects(gzip(bytes(ManifestFixtures.MODULE_YAML))).size());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "no name        | apiVersion: v1\\nkind: ConfigMap\\nmetadata: {namespace: x}\\n   | document 2 (kind ConfigMap) without [metadata.name]",
            "no kind        | apiVersion: v1\\nmetadata: {name: x}\\n                         | document 2 (kind ?) without [kind]",
            "no apiVersion  | kind: Secret\\nmetadata: {name: x}\\n                           | document 2 (kind Secret) without [apiVersion]",
            "a list         | - a\\n- b\\n                                                  | document 2 that is not a Kubernetes object but a ARRAY",
            "a scalar       | just text\\n                                                  | document 2 that is not a Kubernetes object but a STRING",
            "invalid yaml   | 'apiVersion: v1\\nkind: [unclosed\\n'                        | has invalid YAML in document 2", })
    void aDocumentThatIsNoObjectIsRefusedByItsPlace(String name, String second, String expected) {
        String yaml = "apiVersion: v1\nkind: Namespace\nmetadata: {name: ok}\n---\n" + second.replace("\\n", "\n");
        ManifestContent.Invalid e = assertThrows(ManifestContent.Invalid.class, () -> ManifestContent.objects(bytes(yaml)));
        assertTrue(e.getMessage().contains(expected), e.getMessage());
    }

    @Test
    void aBadDocumentInATarIsNamedByFileAndPlace() {
        byte[] tar = tar(Map.of("m/a.yaml", "apiVersion: v1\nkind: Namespace\nmetadata: {}\n"));
        ManifestContent.Invalid e = assertThrows(ManifestContent.Invalid.class, () -> ManifestContent.objects(tar));
        assertTrue(e.getMessage().contains("file m/a.yaml, document 1 (kind Namespace) without [metadata.name]"),
                e.getMessage());
    }

    @Test
    void aTruncatedGzipIsRefused() {
        byte[] gz = gzip(moduleTar());
        byte[] cut = java.util.Arrays.copyOf(gz, gz.length / 2);
        ManifestContent.Invalid e = assertThrows(ManifestContent.Invalid.class, () -> ManifestContent.objects(cut));
        assertTrue(e.getMessage().startsWith("is not a readable YAML stream or tar archive"), e.getMessage());
    }
}
