package dev.rekon.status;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.rekon.rollouts.view.ImageDeployView;
import dev.rekon.status.StatusReport.PruneRow;
import dev.rekon.status.StatusViews.ManagedDeployment;
import dev.rekon.status.StatusViews.WatchedImageDeploy;

/**
 * Decides which managed Deployments the next resync would delete: those whose ImageDeploy (named by their
 * {@code rekon.dev/imagedeploy} label) is gone, and those whose ImageDeploy now describes a Deployment of
 * another name (renamed). A Deployment without that label was not created by a rollout and is never pruned.
 */
final class PruneRows {

    private PruneRows() {
    }

    static List<PruneRow> rows(List<WatchedImageDeploy> imageDeploys, List<ManagedDeployment> deployments) {
        Map<String, ImageDeployView> byName = new HashMap<>();
        imageDeploys.forEach(w -> byName.putIfAbsent(w.view().namespace() + "/" + w.view().name(), w.view()));
        List<PruneRow> rows = new ArrayList<>();
        for (ManagedDeployment d : deployments) {
            if (d.imageDeploy() == null || d.imageDeploy().isBlank()) {
                continue;
            }
            ImageDeployView owner = byName.get(d.namespace() + "/" + d.imageDeploy());
            if (owner == null) {
                rows.add(new PruneRow(d.namespace(), d.view().name(), d.imageDeploy(), "ImageDeployGone", "ImageDeploy "
                        + d.imageDeploy() + " no longer exists; the next resync deletes the Deployment it created"));
            } else if (!owner.deploymentName().equals(d.view().name())) {
                rows.add(new PruneRow(d.namespace(), d.view().name(), d.imageDeploy(), "ImageDeployRenamed",
                        "ImageDeploy " + d.imageDeploy() + " now describes Deployment " + owner.deploymentName()
                                + "; the next resync deletes this one"));
            }
        }
        rows.sort(Comparator.comparing(PruneRow::namespace).thenComparing(PruneRow::deployment));
        return rows;
    }
}
