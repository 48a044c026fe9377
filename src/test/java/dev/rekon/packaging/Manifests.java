package dev.rekon.packaging;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;

import dev.rekon.testing.SharedFiles;

/** The files of {@code knative/}, read as Kubernetes objects. */
final class Manifests {

    /** API groups whose CRDs the project does not define: they come only from the upstream Knative files. */
    static final Set<String> KNATIVE_GROUPS = Set.of("serving.knative.dev", "eventing.knative.dev",
            "sources.knative.dev");

    private Manifests() {
    }

    static Path dir() {
        return SharedFiles.projectDir().resolve("knative");
    }

    /** Every YAML manifest under knative/, except the kustomization (not an API object). */
    static List<Path> files() {
        try (Stream<Path> files = Files.walk(dir())) {
            return files.filter(f -> f.toString().endsWith(".yaml") && !f.endsWith("kustomization.yaml")).sorted()
                    .toList();
        } catch (IOException e) {
            throw new IllegalStateException("cannot list " + dir(), e);
        }
    }

    static List<HasMetadata> load(KubernetesClient client, Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            return client.load(in).items();
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + file, e);
        }
    }

    static String group(HasMetadata item) {
        String apiVersion = item.getApiVersion();
        int slash = apiVersion.indexOf('/');
        return slash < 0 ? "" : apiVersion.substring(0, slash);
    }

    static String relative(Path file) {
        return SharedFiles.projectDir().relativize(file).toString();
    }
}
