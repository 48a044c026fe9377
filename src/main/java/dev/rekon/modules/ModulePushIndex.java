package dev.rekon.modules;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import com.fasterxml.jackson.databind.ObjectMapper;

import dev.rekon.cluster.KubeErrors;
import dev.rekon.cluster.ScopedViews;
import dev.rekon.core.RekonConfig;
import dev.rekon.registry.ImageReference;
import dev.rekon.webhooks.Subscription;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.LocalObjectReference;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * The module Deployments (label {@value ModuleDeployment#MODULE_LABEL}) by the image repositories their
 * containers run, so that a push finds the modules it concerns without listing Deployments: watched per allowed
 * namespace ({@link ScopedViews}).
 */
@ApplicationScoped
public class ModulePushIndex {

    /** One module Deployment, the repositories it runs, and where its pull secrets are. */
    public record Running(ModuleDeployment deployment, Set<String> repositories, Subscription.PullSecrets pullSecrets) {
    }

    @Inject
    KubernetesClient client;

    @Inject
    ObjectMapper mapper;

    @Inject
    RekonConfig config;

    private ScopedViews<Running> views;

    @PostConstruct
    void init() {
        var op = client.genericKubernetesResources("apps/v1", "Deployment");
        views = new ScopedViews<>("module Deployments by repository", config.namespacePolicy(),
                ns -> (ns == null ? op.inAnyNamespace() : op.inNamespace(ns)).withLabel(ModuleDeployment.MODULE_LABEL)
                        .runnableInformer(0),
                ns -> KubeErrors.call("listing module Deployments", () -> (ns == null ? op.inAnyNamespace()
                        : op.inNamespace(ns)).withLabel(ModuleDeployment.MODULE_LABEL).list().getItems()),
                this::running, Running::repositories);
    }

    /** The module Deployments (in allowed namespaces) with a container running this repository. */
    public List<Running> running(String repositoryKey) {
        return views.find(repositoryKey);
    }

    private Running running(GenericKubernetesResource r) {
        Deployment d = mapper.convertValue(r, Deployment.class);
        ModuleDeployment view = KubeModuleGateway.view(d);
        var pod = d.getSpec().getTemplate().getSpec();
        String serviceAccount = pod.getServiceAccountName() == null ? "default" : pod.getServiceAccountName();
        List<String> secrets = pod.getImagePullSecrets() == null ? List.of()
                : pod.getImagePullSecrets().stream().map(LocalObjectReference::getName).toList();
        return new Running(view, repositories(view), new Subscription.PullSecrets(view.ref().namespace(), serviceAccount,
                secrets));
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

    @PreDestroy
    void stop() {
        views.stop();
    }
}
