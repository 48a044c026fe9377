package dev.rekon.modules.apply;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.rekon.core.ObjectRef;
import dev.rekon.manifests.ManifestObjects;
import dev.rekon.modules.plan.ModuleDeployment;
import dev.rekon.modules.watch.ModulePushIndex;
import dev.rekon.registry.ImageReference;
import dev.rekon.webhooks.Subscription;
import io.fabric8.kubernetes.api.model.LocalObjectReference;
import io.fabric8.kubernetes.api.model.apps.Deployment;

/**
 * Reads the client's Deployments as module Deployments: their labels, images, replicas and Rekon's annotations,
 * and for the push index the repositories they run and where their pull secrets are.
 */
public final class KubeModuleDeployments {

    private static final ObjectMapper ANNOTATIONS = new ObjectMapper();

    private KubeModuleDeployments() {
    }

    /** A watched Deployment labelled as a module's: its view, the repositories it runs, its pull secrets. */
    public static ModulePushIndex.Running running(ObjectMapper mapper, JsonNode object) {
        Deployment d = mapper.convertValue(object, Deployment.class);
        ModuleDeployment view = view(d);
        var pod = d.getSpec().getTemplate().getSpec();
        String serviceAccount = pod.getServiceAccountName() == null ? "default" : pod.getServiceAccountName();
        List<String> secrets = pod.getImagePullSecrets() == null ? List.of()
                : pod.getImagePullSecrets().stream().map(LocalObjectReference::getName).toList();
        Map<String, String> labels = d.getMetadata().getLabels() == null ? Map.of() : d.getMetadata().getLabels();
        return new ModulePushIndex.Running(view, repositories(view),
                new Subscription.PullSecrets(view.ref().namespace(), serviceAccount, secrets),
                "rekon".equals(labels.get(ManifestObjects.MANAGED_BY)));
    }

    /** The module Deployment view of a Deployment Rekon read. */
    public static ModuleDeployment view(Deployment d) {
        var meta = d.getMetadata();
        Map<String, String> labels = meta.getLabels() == null ? Map.of() : meta.getLabels();
        Map<String, String> annotations = meta.getAnnotations() == null ? Map.of() : meta.getAnnotations();
        Map<String, String> images = new LinkedHashMap<>();
        d.getSpec().getTemplate().getSpec().getContainers().forEach(c -> images.put(c.getName(), c.getImage()));
        Integer before = null;
        String remembered = annotations.get(ModuleDeployment.REPLICAS_ANNOTATION);
        if (remembered != null && remembered.matches("\\d{1,9}")) {
            before = Integer.valueOf(remembered);
        }
        return new ModuleDeployment(new ObjectRef("apps/v1", "Deployment", meta.getNamespace(), meta.getName()),
                meta.getResourceVersion(), labels.get(ModuleDeployment.MODULE_LABEL),
                labels.get(ModuleDeployment.VERSION_LABEL), labels.get(ModuleDeployment.CHANNEL_LABEL), images,
                d.getSpec().getReplicas() == null ? 1 : d.getSpec().getReplicas(), before,
                appliedImages(annotations.get(ModuleDeployment.APPLIED_IMAGES_ANNOTATION)),
                "true".equalsIgnoreCase(annotations.get(ModuleDeployment.SUSPEND_ANNOTATION)),
                annotations.get(ModuleDeployment.MANUAL_CHANGE_ANNOTATION));
    }

    /** The recorded images; a record that is not a JSON object of strings counts as none. */
    private static Map<String, String> appliedImages(String annotation) {
        Map<String, String> images = new LinkedHashMap<>();
        if (annotation == null) {
            return images;
        }
        try {
            ANNOTATIONS.readTree(annotation).fields().forEachRemaining(f -> {
                if (f.getValue().isTextual()) {
                    images.put(f.getKey(), f.getValue().asText());
                }
            });
        } catch (com.fasterxml.jackson.core.JsonProcessingException unreadable) {
            return Map.of();
        }
        return images;
    }

    private static Set<String> repositories(ModuleDeployment d) {
        Set<String> out = new LinkedHashSet<>();
        for (String image : d.containerImages().values()) {
            try {
                out.add(ImageReference.parse(image).repositoryKey());
            } catch (IllegalArgumentException unparsable) {
                // a container whose image Rekon cannot read follows no pushes
            }
        }
        return out;
    }
}
