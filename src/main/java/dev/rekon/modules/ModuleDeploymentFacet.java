package dev.rekon.modules;

import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.rekon.cluster.watch.KindFacet;
import dev.rekon.cluster.watch.WatchedKindId;
import dev.rekon.registry.ImageReference;
import dev.rekon.webhooks.Subscription;
import io.fabric8.kubernetes.api.model.LocalObjectReference;
import io.fabric8.kubernetes.api.model.apps.Deployment;

/**
 * Deployments as the module functions read them: for each one labelled {@value ModuleDeployment#MODULE_LABEL}, its
 * {@link ModuleDeployment}, the image repositories it runs (what it is found by) and where its pull secrets are;
 * none for the others.
 */
@Singleton
public class ModuleDeploymentFacet extends KindFacet<ModulePushIndex.Running> {

    @Inject
    ObjectMapper mapper;

    public ModuleDeploymentFacet() {
        super(WatchedKindId.namespaced("apps", "v1", "deployments", "Deployment"));
    }

    @Override
    public ModulePushIndex.Running view(JsonNode object) {
        if (!object.path("metadata").path("labels").has(ModuleDeployment.MODULE_LABEL)) {
            return null;
        }
        Deployment d = mapper.convertValue(object, Deployment.class);
        ModuleDeployment view = KubeModuleGateway.view(d);
        var pod = d.getSpec().getTemplate().getSpec();
        String serviceAccount = pod.getServiceAccountName() == null ? "default" : pod.getServiceAccountName();
        List<String> secrets = pod.getImagePullSecrets() == null ? List.of()
                : pod.getImagePullSecrets().stream().map(LocalObjectReference::getName).toList();
        return new ModulePushIndex.Running(view, repositories(view),
                new Subscription.PullSecrets(view.ref().namespace(), serviceAccount, secrets));
    }

    @Override
    public Collection<String> indexKeys(ModulePushIndex.Running view) {
        return view.repositories();
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
