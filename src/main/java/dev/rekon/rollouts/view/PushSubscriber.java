package dev.rekon.rollouts.view;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;

import dev.rekon.registry.ImageReference;
import dev.rekon.webhooks.Subscription;

/**
 * What the push index keeps of one ImageDeploy: who it is, the repositories it follows (those its containers
 * and initContainers name directly, not {@code REF=}, when it has a {@code spec.updatePolicy}; none otherwise),
 * and where its pull secrets are (the pod template's {@code imagePullSecrets} and ServiceAccount).
 */
public record PushSubscriber(String group, String namespace, String name, Set<String> repositories,
        Subscription.PullSecrets pullSecrets) {

    public PushSubscriber {
        repositories = Set.copyOf(repositories);
    }

    public static PushSubscriber of(JsonNode imageDeploy) {
        ImageDeployView v = ImageDeployView.fromJson(imageDeploy);
        boolean follows = imageDeploy.path("spec").path("updatePolicy").isObject();
        Set<String> repositories = new LinkedHashSet<>();
        List<String> secrets = new ArrayList<>();
        JsonNode podSpec = v.podSpec();
        if (follows) {
            for (String list : new String[] { "initContainers", "containers" }) {
                podSpec.path(list).forEach(c -> repositoryOf(c.path("image").asText("")).ifPresent(repositories::add));
            }
            podSpec.path("imagePullSecrets").forEach(s -> secrets.add(s.path("name").asText("")));
        }
        String serviceAccount = podSpec.path("serviceAccountName").asText("");
        return new PushSubscriber(v.group(), v.namespace(), v.name(), repositories, new Subscription.PullSecrets(
                v.namespace(), follows ? serviceAccount.isBlank() ? "default" : serviceAccount : null,
                secrets.stream().filter(s -> !s.isBlank()).toList()));
    }

    public String describe() {
        return "ImageDeploy " + namespace + "/" + name;
    }

    private static java.util.Optional<String> repositoryOf(String image) {
        if (image.isBlank() || image.startsWith(ImageDeployView.REF_PREFIX)) {
            return java.util.Optional.empty();
        }
        try {
            return java.util.Optional.of(ImageReference.parse(image).repositoryKey());
        } catch (IllegalArgumentException unparsable) {
            return java.util.Optional.empty();
        }
    }
}
