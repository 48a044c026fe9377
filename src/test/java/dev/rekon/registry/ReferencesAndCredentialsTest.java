package dev.rekon.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Optional;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ReferencesAndCredentialsTest {

    @ParameterizedTest
    @CsvSource({
            "paketo-buildpacks/java,                   docker.io, paketo-buildpacks/java, latest,",
            "ubuntu,                                   docker.io, library/ubuntu,         latest,",
            "127.0.0.1:5000/bp/java:1.2,               127.0.0.1:5000, bp/java,           1.2,",
            "localhost/bp/java,                        localhost, bp/java,                latest,",
            "gcr.io/paketo/java@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef, gcr.io, paketo/java, , sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
            "ghcr.io/a/b:v1@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef, ghcr.io, a/b, v1, sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
    })
    void parsesReferencesWithDockerDefaults(String text, String registry, String repository, String tag, String digest) {
        assertEquals(new ImageReference(registry, repository, tag, digest), ImageReference.parse(text));
    }

    @ParameterizedTest
    @ValueSource(strings = { "", "bad/UPPER", "repo:bad tag", "repo@sha256:short" })
    void rejectsInvalidReferences(String text) {
        assertThrows(IllegalArgumentException.class, () -> ImageReference.parse(text));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "{\"auths\":{\"127.0.0.1:5000\":{\"username\":\"u\",\"password\":\"p\"}}}                | 127.0.0.1:5000 | u:p",
            "{\"auths\":{\"https://127.0.0.1:5000/v2/\":{\"auth\":\"AUTH\"}}}                         | 127.0.0.1:5000 | a:b:c",
            "{\"auths\":{\"https://index.docker.io/v1/\":{\"username\":\"hub\",\"password\":\"x\"}}}  | docker.io      | hub:x",
            "{\"registry.lab\":{\"auth\":\"AUTH\"}}                                                   | registry.lab   | a:b:c",
            "{\"auths\":{\"registry.lab\":{\"auth\":\"AUTH\"}}}                                       | ghcr.io        | none",
    })
    void findsCredentialsForARegistry(String json, String registry, String expected) {
        String auth = Base64.getEncoder().encodeToString("a:b:c".getBytes(StandardCharsets.UTF_8));
        DockerConfig config = DockerConfig.parse(json.replace("AUTH", auth).getBytes(StandardCharsets.UTF_8));

        Optional<Credential> c = config.forRegistry(registry);

        assertEquals(expected, c.map(x -> x.username() + ":" + x.password()).orElse("none"));
    }
}
