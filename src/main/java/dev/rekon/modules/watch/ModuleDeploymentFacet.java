package dev.rekon.modules.watch;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.rekon.cluster.watch.KindFacet;
import dev.rekon.cluster.watch.WatchedKindId;
import dev.rekon.modules.apply.KubeModuleDeployments;
import dev.rekon.modules.plan.ModuleDeployment;

/**
 * Deployments as the module functions read them: for each one labelled {@value ModuleDeployment#MODULE_LABEL}, its
 * {@link ModuleDeployment}, the image repositories it runs and where its pull secrets are; found by those
 * repositories, and by its module unless the module lifecycle installed it. None for the others.
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
        return KubeModuleDeployments.running(mapper, object);
    }

    @Override
    public Collection<String> indexKeys(ModulePushIndex.Running view) {
        if (view.installed()) {
            return view.repositories();
        }
        List<String> keys = new ArrayList<>(view.repositories());
        keys.add(ModulePushIndex.moduleKey(view.deployment().module()));
        return keys;
    }
}
