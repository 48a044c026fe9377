package dev.rekon.status;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.buildpacks.view.BuilderView;
import dev.rekon.buildpacks.view.BuildpackView;
import dev.rekon.modules.ModuleReport;
import dev.rekon.modules.plan.ModuleDeployment;
import dev.rekon.modules.release.ModuleTemplateView;
import dev.rekon.modules.release.ReleaseMetaView;
import dev.rekon.rollouts.RolloutReport;
import dev.rekon.rollouts.status.RolloutSection;
import dev.rekon.rollouts.view.DeploymentView;
import dev.rekon.rollouts.view.ImageDeployView;
import dev.rekon.rollouts.view.KpackImage;
import dev.rekon.rollouts.view.RolloutNames;
import dev.rekon.rollouts.watch.DeploymentProgressFacet;

/** Views as the watches would hold them, built from the JSON the apiserver would send. */
final class StatusFixtures {

    static final ObjectMapper JSON = new ObjectMapper();
    static final String NS = "shop";

    final List<ImageDeployView> imageDeploys = new ArrayList<>();
    final List<DeploymentView> deployments = new ArrayList<>();
    final java.util.Map<String, RolloutSection.Progress> progress = new java.util.HashMap<>();
    final List<KpackImage> images = new ArrayList<>();
    final List<BuildpackView> buildpacks = new ArrayList<>();
    final List<BuilderView> builders = new ArrayList<>();
    final List<ModuleDeployment> moduleDeployments = new ArrayList<>();
    final List<JsonNode> metas = new ArrayList<>();
    final List<JsonNode> templates = new ArrayList<>();
    final List<StatusReport.Decision> decisions = new ArrayList<>();

    static String digest(char c) {
        return "registry.local/shop/app@sha256:" + String.valueOf(c).repeat(64);
    }

    static JsonNode json(String text) {
        try {
            return JSON.readTree(text.replace('\'', '"'));
        } catch (Exception e) {
            throw new IllegalArgumentException(text, e);
        }
    }

    StatusFixtures imageDeploy(String ns, String name, String deployment, String imageName, boolean suspend) {
        imageDeploys.add(ImageDeployView.fromJson(json("""
                {'apiVersion': 'rekon.dev/v1alpha1', 'kind': 'ImageDeploy', 'metadata': {'namespace': '%s', 'name': '%s',
                 'uid': 'uid-%s'}, 'spec': {'suspend': %s, 'deployment': {'metadata': {'name': '%s'}, 'spec': {'template':
                 {'spec': {'containers': [{'name': 'web', 'image': 'REF=%s'}]}}}}}}
                """.formatted(ns, name, name, suspend, deployment, imageName))));
        return this;
    }

    StatusFixtures image(String ns, String name, long build, String latest, boolean ready) {
        images.add(KpackImage.fromJson(json("""
                {'metadata': {'namespace': '%s', 'name': '%s', 'uid': 'img-%s'}, 'status': {'latestImage': '%s',
                 'buildCounter': %d, 'conditions': [{'type': 'Ready', 'status': '%s'}]}}
                """.formatted(ns, name, name, latest, build, ready ? "True" : "False"))));
        return this;
    }

    /**
     * A managed Deployment running {@code running}, with Rekon's record of {@code applied} from build {@code build},
     * owned (as Rekon creates it) by ImageDeploy {@code imageDeploy}.
     */
    StatusFixtures deployment(String ns, String name, String imageDeploy, String imageName, String running,
            String applied, long build, int desired, int updated, int ready) {
        return deployment(ns, name, imageDeploy, "rekon.dev/v1alpha1", imageName, running, applied, build, desired,
                updated, ready);
    }

    /** The same, owned by an ImageDeploy of {@code ownerApiVersion} (null: no ownerReference). */
    StatusFixtures deployment(String ns, String name, String imageDeploy, String ownerApiVersion, String imageName,
            String running, String applied, long build, int desired, int updated, int ready) {
        ObjectNode d = (ObjectNode) json("""
                {'metadata': {'namespace': '%s', 'name': '%s', 'resourceVersion': '5', 'uid': 'uid-d-%s', 'labels':
                 {'app.kubernetes.io/managed-by': 'rekon', 'rekon.dev/imagedeploy': '%s'}, 'annotations': {},
                 'ownerReferences': %s},
                 'spec': {'replicas': %d, 'template': {'spec': {'containers': [{'name': 'web', 'image': '%s'}]}}},
                 'status': {'observedGeneration': 1, 'updatedReplicas': %d, 'readyReplicas': %d, 'availableReplicas': %d, 'conditions': [
                  {'type': 'Progressing', 'status': 'True', 'reason': 'NewReplicaSetAvailable'},
                  {'type': 'Available', 'status': 'True', 'reason': 'MinimumReplicasAvailable'}]}}
                """.formatted(ns, name, name, imageDeploy, ownerApiVersion == null ? "[]" : "[{'apiVersion': '"
                        + ownerApiVersion + "', 'kind': 'ImageDeploy', 'name': '" + imageDeploy + "', 'uid': 'uid-"
                        + imageDeploy + "', 'controller': true}]", desired, running, updated, ready, ready));
        ((ObjectNode) d.path("metadata").path("annotations")).put("rekon.dev/applied-builds", "[{\"name\":\"" + imageName
                + "\",\"image\":\"" + applied + "\",\"buildCounter\":" + build + ",\"imageUid\":\"img-" + imageName + "\"}]");
        deployments.add(DeploymentView.fromJson(d));
        progress.put(ns + "/" + name, DeploymentProgressFacet.progress(d));
        return this;
    }

    StatusFixtures builder(String name, String ready, String reason, String message) {
        builders.add(BuilderView.of(json("""
                {'kind': 'ClusterBuilder', 'metadata': {'name': '%s'}, 'spec': {'order': [{'group': [{'id': 'sample/java'}]}]},
                 'status': {'conditions': [{'type': 'Ready', 'status': '%s', 'reason': '%s', 'message': '%s'}]}}
                """.formatted(name, ready, reason, message))));
        return this;
    }

    StatusFixtures buildpack(String name) {
        buildpacks.add(BuildpackView.of(json("""
                {'kind': 'ClusterBuildpack', 'metadata': {'name': '%s'}, 'spec': {'source': {'image': 'reg/bp/java:1'}},
                 'status': {'buildpacks': [{'id': 'sample/java', 'version': '1.0.0', 'storeImage': {'image':
                 'reg/bp/java@sha256:abc'}}], 'conditions': [{'type': 'Ready', 'status': 'True', 'reason': 'Read',
                 'lastTransitionTime': '2026-11-23T10:00:00Z'}]}}
                """.formatted(name))));
        return this;
    }

    /** Module kpack running {@code running} on channel regular; its ReleaseMeta offers {@code offered}. */
    StatusFixtures module(String running, String offered) {
        moduleDeployments.add(new ModuleDeployment(new dev.rekon.core.ObjectRef("apps/v1", "Deployment", "kpack",
                "kpack-controller"), "3", "kpack", running, "regular", java.util.Map.of("controller",
                        "gcr.io/kpack/controller:" + running), 1, null));
        metas.add(json("""
                {'metadata': {'namespace': 'kcp-system', 'name': 'kpack'}, 'spec': {'moduleName': 'kpack',
                 'channels': [{'channel': 'regular', 'version': '%s'}]}}""".formatted(offered)));
        templates.add(json("""
                {'metadata': {'namespace': 'kcp-system', 'name': 'kpack-%s'}, 'spec': {'moduleName': 'kpack', 'version': '%s',
                 'descriptor': {'meta': {'schemaVersion': 'v2'}, 'component': {'name': 'kyma-project.io/module/kpack',
                  'version': '%s', 'provider': 'kyma-project.io', 'resources': [{'name': 'controller', 'type': 'ociArtifact',
                  'relation': 'external', 'version': '%s', 'access': {'type': 'ociArtifact',
                  'imageReference': 'gcr.io/kpack/controller:%s'}}]}}}}""".formatted(offered, offered, offered, offered, offered)));
        return this;
    }


    /** What the modules report reads of the watches. */
    ModuleReport.Watched modulesWatched() {
        return new ModuleReport.Watched(moduleDeployments, metas.stream().map(ReleaseMetaView::of).toList(),
                templates.stream().map(ModuleTemplateView::of).toList());
    }

    /** What the rollouts report reads of the watches. */
    RolloutReport.Watched watched() {
        return new RolloutReport.Watched(imageDeploys, deployments, progress, images, java.util.Set.of(RolloutNames.GROUP));
    }
}
