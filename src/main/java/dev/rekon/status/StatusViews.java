package dev.rekon.status;

import java.util.List;

import dev.rekon.buildpacks.view.BuilderView;
import dev.rekon.buildpacks.view.BuildpackView;
import dev.rekon.modules.plan.ModuleDeployment;
import dev.rekon.modules.release.ModuleTemplateView;
import dev.rekon.modules.release.ReleaseMetaView;

/**
 * What the buildpacks, modules and decisions rows are made from, as the watch caches hold it at one moment: no
 * field here needs an API call. (The areas with an {@link AreaReport} read their own keys.)
 */
public record StatusViews(List<BuildpackView> buildpacks, List<BuilderView> builders,
        List<ModuleDeployment> moduleDeployments, List<ReleaseMetaView> releaseMetas,
        List<ModuleTemplateView> templates, List<StatusReport.Decision> decisions) {

    public StatusViews {
        buildpacks = List.copyOf(buildpacks);
        builders = List.copyOf(builders);
        moduleDeployments = List.copyOf(moduleDeployments);
        releaseMetas = List.copyOf(releaseMetas);
        templates = List.copyOf(templates);
        decisions = List.copyOf(decisions);
    }
}
