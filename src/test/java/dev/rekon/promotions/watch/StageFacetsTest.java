package dev.rekon.promotions.watch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.rekon.cluster.Conditions;
import dev.rekon.promotions.view.StageImageDeploy;

/**
 * What a stage cluster's ImageDeploy watch tells a promotion: a change that newly settles a build, not one the watch
 * lists anew (its start or a relist: the plan that started it read them), nor one that settles nothing new.
 */
class StageFacetsTest {

    static final String B1 = "registry.local/r/hello@sha256:" + "1".repeat(64);

    static StageImageDeploy idp(String rv, String rolledOut, String reason) {
        return new StageImageDeploy("demo", "hello", rv, Map.of("hello", B1),
                new Conditions.Written("Ready", "True", "Applied", null, 1L, null, null),
                new Conditions.Written("RolledOut", rolledOut, reason, null, 1L, null, null), "hello");
    }

    @Test
    void onlyAChangeThatNewlySettlesABuildIsTold() {
        List<StageImageDeploy> told = new ArrayList<>();
        StageFacets.ImageDeploys facet = new StageFacets.ImageDeploys(told::add);
        StageImageDeploy underWay = idp("1", "False", "Progressing");
        StageImageDeploy proven = idp("2", "True", "RolloutComplete");
        facet.changed(null, proven);
        assertEquals(List.of(), told, "listed anew");
        facet.changed(underWay, proven);
        facet.changed(proven, idp("3", "True", "RolloutComplete"));
        facet.changed(proven, null);
        assertEquals(List.of(proven), told);
    }
}
