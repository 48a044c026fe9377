package dev.rekon.status;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.rekon.buildpacks.BuilderView;
import dev.rekon.buildpacks.BuildpackView;
import dev.rekon.core.RekonConfig;
import dev.rekon.modules.KymaModules;
import dev.rekon.modules.ModuleDeployment;
import dev.rekon.modules.KubeModuleGateway;
import dev.rekon.rollouts.KpackImage;
import dev.rekon.rollouts.RolloutConfig;
import dev.rekon.rollouts.RolloutGateway;
import dev.rekon.rollouts.RolloutPlanner;
import dev.rekon.status.StatusViews.ManagedDeployment;
import dev.rekon.status.StatusViews.WatchedImageDeploy;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;

/**
 * The status page's only I/O: watches of every kind it shows (started on the first request, so a process that
 * nobody asks pays nothing), read into one {@link StatusViews}. After the first request a report costs zero API
 * calls.
 */
@ApplicationScoped
public class StatusCaches {

    @Inject
    KubernetesClient client;

    @Inject
    ObjectMapper mapper;

    @Inject
    RekonConfig rekon;

    @Inject
    RolloutConfig rollouts;

    @Inject
    DecisionLog decisions;

    private List<WatchedKind<WatchedImageDeploy>> imageDeploys;
    private WatchedKind<ManagedDeployment> managed;
    private WatchedKind<KpackImage> images;
    private List<WatchedKind<BuildpackView>> buildpacks;
    private List<WatchedKind<BuilderView>> builders;
    private WatchedKind<ModuleDeployment> moduleDeployments;
    private WatchedKind<JsonNode> releaseMetas;
    private WatchedKind<JsonNode> templates;

    /** How long a request waits for watches still listing before it answers that the page is loading. */
    static final Duration LOADING_WAIT = Duration.ofSeconds(2);

    /** The watches have not listed everything yet: an empty picture now would not be the truth. */
    public static final class Loading extends RuntimeException {
        public Loading(List<String> kinds) {
            super("the status page is loading: still listing " + String.join(", ", kinds) + "; ask again in a moment");
        }
    }

    /**
     * What the watches hold, and this replica's decisions; waits up to {@link #LOADING_WAIT} for watches still
     * starting, then throws {@link Loading} naming them.
     */
    public StatusViews views() {
        start();
        long deadline = System.nanoTime() + LOADING_WAIT.toNanos();
        List<String> unavailable = new ArrayList<>();
        List<String> loading = new ArrayList<>();
        List<WatchedImageDeploy> idps = new ArrayList<>();
        imageDeploys.forEach(k -> idps.addAll(k.views(unavailable, loading, deadline)));
        List<BuildpackView> bps = new ArrayList<>();
        buildpacks.forEach(k -> bps.addAll(k.views(unavailable, loading, deadline)));
        List<BuilderView> bs = new ArrayList<>();
        builders.forEach(k -> bs.addAll(k.views(unavailable, loading, deadline)));
        StatusViews views = new StatusViews(idps, managed.views(unavailable, loading, deadline),
                images.views(unavailable, loading, deadline), bps, bs,
                moduleDeployments.views(unavailable, loading, deadline), releaseMetas.views(unavailable, loading, deadline),
                templates.views(unavailable, loading, deadline), decisions.recent(), unavailable);
        if (!loading.isEmpty()) {
            throw new Loading(loading);
        }
        return views;
    }

    private synchronized void start() {
        if (imageDeploys != null) {
            return;
        }
        List<String> groups = rollouts.kpushImageDeploys() ? List.of(RolloutGateway.GROUP, RolloutGateway.KPUSH_GROUP)
                : List.of(RolloutGateway.GROUP);
        imageDeploys = groups.stream().map(g -> kind("ImageDeploys (" + g + ")", context(g, "v1alpha1", "imagedeploys",
                "ImageDeploy", true), null, false, WatchedImageDeploy::fromJson)).toList();
        managed = kind("managed Deployments", context("apps", "v1", "deployments", "Deployment", true),
                RolloutPlanner.MANAGED_BY + "=rekon", false, ManagedDeployment::fromJson);
        RolloutConfig.ImageCrd crd = rollouts.imageCrd();
        images = kind("kpack Images", context(crd.group(), crd.version(), crd.plural(), "Image", true), null, false,
                KpackImage::fromJson);
        buildpacks = List.of(kpack("Buildpack", true, BuildpackView::of), kpack("ClusterBuildpack", false, BuildpackView::of));
        builders = List.of(kpack("Builder", true, BuilderView::of), kpack("ClusterBuilder", false, BuilderView::of));
        moduleDeployments = kind("module Deployments", context("apps", "v1", "deployments", "Deployment", true),
                ModuleDeployment.MODULE_LABEL, false, d -> KubeModuleGateway.view(mapper.convertValue(d, Deployment.class)));
        releaseMetas = kyma(KymaModules.RELEASE_META);
        templates = kyma(KymaModules.TEMPLATE);
    }

    private <V> WatchedKind<V> kpack(String kind, boolean namespaced, java.util.function.Function<JsonNode, V> view) {
        return kind(kind + "s", context("kpack.io", "v1alpha2", kind.toLowerCase(java.util.Locale.ROOT) + "s", kind,
                namespaced), null, false, view);
    }

    private WatchedKind<JsonNode> kyma(String kind) {
        String[] gv = KymaModules.API_VERSION.split("/");
        return kind(kind + "s", context(gv[0], gv[1], kind.toLowerCase(java.util.Locale.ROOT) + "s", kind, true), null,
                true, j -> j);
    }

    private <V> WatchedKind<V> kind(String what, ResourceDefinitionContext context, String label, boolean everywhere,
            java.util.function.Function<JsonNode, V> view) {
        return new WatchedKind<>(what, client, mapper, context, label, everywhere, rekon.namespacePolicy(), view);
    }

    private static ResourceDefinitionContext context(String group, String version, String plural, String kind,
            boolean namespaced) {
        return new ResourceDefinitionContext.Builder().withGroup(group).withVersion(version).withPlural(plural)
                .withKind(kind).withNamespaced(namespaced).build();
    }

    @PreDestroy
    synchronized void stop() {
        if (imageDeploys != null) {
            imageDeploys.forEach(WatchedKind::stop);
            List.of(managed, images, moduleDeployments, releaseMetas, templates).forEach(WatchedKind::stop);
            buildpacks.forEach(WatchedKind::stop);
            builders.forEach(WatchedKind::stop);
        }
    }
}
