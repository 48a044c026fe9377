package dev.rekon.testing;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaPropsBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * Installs the CRDs every test needs: the upstream ones from {@code ../shared/crds} when that folder is
 * there, otherwise schema-less stand-ins defined here from the upstream projects' published group, kind,
 * plural and scope; and always the project's own from {@code knative/crds}.
 */
final class CrdInstaller {

    /** group, version, kind, plural, namespaced: the facts the stand-ins need, as the upstream CRDs publish them. */
    private record StandIn(String group, String version, String kind, String plural, boolean namespaced) {
    }

    private static final List<StandIn> STAND_INS = List.of(
            new StandIn("kpack.io", "v1alpha2", "Image", "images", true),
            new StandIn("kpack.io", "v1alpha2", "Build", "builds", true),
            new StandIn("kpack.io", "v1alpha2", "Builder", "builders", true),
            new StandIn("kpack.io", "v1alpha2", "ClusterBuilder", "clusterbuilders", false),
            new StandIn("kpack.io", "v1alpha2", "Buildpack", "buildpacks", true),
            new StandIn("kpack.io", "v1alpha2", "ClusterBuildpack", "clusterbuildpacks", false),
            new StandIn("kpack.io", "v1alpha2", "ClusterStack", "clusterstacks", false),
            new StandIn("kpack.io", "v1alpha2", "ClusterStore", "clusterstores", false),
            new StandIn("operator.kyma-project.io", "v1beta2", "ModuleTemplate", "moduletemplates", true),
            new StandIn("operator.kyma-project.io", "v1beta2", "ModuleReleaseMeta", "modulereleasemetas", true),
            new StandIn("operator.kyma-project.io", "v1beta2", "Kyma", "kymas", true));

    /** kpush's own CRD: ImageDeploys of its API group work like Rekon's. Not among the shared upstream files. */
    private static final StandIn KPUSH = new StandIn("crd.whizzosoftware.com", "v1alpha1", "ImageDeploy",
            "imagedeploys", true);

    private CrdInstaller() {
    }

    static List<String> install(KubernetesClient client, Path projectDir) {
        List<CustomResourceDefinition> crds = new ArrayList<>();
        Path shared = SharedFiles.crdsDir();
        if (shared != null) {
            crds.addAll(loadAll(client, shared));
        } else {
            STAND_INS.forEach(s -> crds.add(standIn(s)));
        }
        crds.add(standIn(KPUSH));
        crds.addAll(loadAll(client, projectDir.resolve("knative/crds")));
        return apply(client, crds);
    }

    /** Only the project's own CRDs ({@code knative/crds}): a cluster without kpack, Kyma or kpush. */
    static List<String> installOwn(KubernetesClient client, Path projectDir) {
        return apply(client, loadAll(client, projectDir.resolve("knative/crds")));
    }

    private static List<String> apply(KubernetesClient client, List<CustomResourceDefinition> crds) {
        List<String> names = new ArrayList<>();
        for (CustomResourceDefinition crd : crds) {
            crd.getMetadata().setResourceVersion(null);
            client.apiextensions().v1().customResourceDefinitions().resource(crd).createOr(c -> c.update());
            names.add(crd.getMetadata().getName());
        }
        for (String name : names) {
            client.apiextensions().v1().customResourceDefinitions().withName(name).waitUntilCondition(
                    c -> c != null && c.getStatus() != null && c.getStatus().getConditions() != null
                            && c.getStatus().getConditions().stream()
                            .anyMatch(cond -> "Established".equals(cond.getType()) && "True".equals(cond.getStatus())),
                    60, TimeUnit.SECONDS);
        }
        return names;
    }

    private static List<CustomResourceDefinition> loadAll(KubernetesClient client, Path dir) {
        List<CustomResourceDefinition> out = new ArrayList<>();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".yaml") || p.toString().endsWith(".yml"))
                    .sorted().toList()) {
                try (InputStream in = Files.newInputStream(f)) {
                    for (HasMetadata item : client.load(in).items()) {
                        if (item instanceof CustomResourceDefinition crd) {
                            out.add(crd);
                        }
                    }
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot read CRDs from " + dir, e);
        }
        return out;
    }

    private static CustomResourceDefinition standIn(StandIn s) {
        return new CustomResourceDefinitionBuilder()
                .withNewMetadata().withName(s.plural() + "." + s.group()).endMetadata()
                .withNewSpec()
                .withGroup(s.group())
                .withScope(s.namespaced() ? "Namespaced" : "Cluster")
                .withNewNames().withKind(s.kind()).withPlural(s.plural())
                .withSingular(s.kind().toLowerCase(java.util.Locale.ROOT)).withListKind(s.kind() + "List").endNames()
                .addNewVersion().withName(s.version()).withServed(true).withStorage(true)
                .withNewSubresources().withNewStatus().endStatus().endSubresources()
                .withNewSchema().withOpenAPIV3Schema(schema(s)).endSchema()
                .endVersion()
                .endSpec()
                .build();
    }

    /**
     * Any object, except what server-side apply merges by the upstream schema: a ModuleReleaseMeta's
     * {@code spec.channels} is a list keyed by {@code channel}, as Kyma's CRD declares it.
     */
    private static JSONSchemaProps schema(StandIn s) {
        JSONSchemaProps any = new JSONSchemaPropsBuilder().withType("object").withXKubernetesPreserveUnknownFields(true)
                .build();
        if (!s.kind().equals("ModuleReleaseMeta")) {
            return any;
        }
        JSONSchemaProps string = new JSONSchemaPropsBuilder().withType("string").build();
        JSONSchemaProps channels = new JSONSchemaPropsBuilder().withType("array")
                .withXKubernetesListType("map").withXKubernetesListMapKeys("channel")
                .withNewItems().withNewSchema().withType("object").withRequired("channel", "version")
                .addToProperties("channel", string).addToProperties("version", string).endSchema().endItems()
                .build();
        JSONSchemaProps spec = new JSONSchemaPropsBuilder().withType("object").withXKubernetesPreserveUnknownFields(true)
                .addToProperties("channels", channels).build();
        return new JSONSchemaPropsBuilder().withType("object").withXKubernetesPreserveUnknownFields(true)
                .addToProperties("spec", spec).build();
    }
}
