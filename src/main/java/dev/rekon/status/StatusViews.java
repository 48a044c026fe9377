package dev.rekon.status;

import java.util.List;

import dev.rekon.buildpacks.view.BuilderView;
import dev.rekon.buildpacks.view.BuildpackView;

/**
 * What the buildpacks and decisions rows are made from, as the watch caches hold it at one moment: no
 * field here needs an API call. (The areas with an {@link AreaReport} read their own keys.)
 */
public record StatusViews(List<BuildpackView> buildpacks, List<BuilderView> builders,
        List<StatusReport.Decision> decisions) {

    public StatusViews {
        buildpacks = List.copyOf(buildpacks);
        builders = List.copyOf(builders);
        decisions = List.copyOf(decisions);
    }
}
