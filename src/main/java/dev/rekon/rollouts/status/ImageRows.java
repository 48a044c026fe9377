package dev.rekon.rollouts.status;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import dev.rekon.rollouts.status.RolloutSection.ImageRow;
import dev.rekon.rollouts.view.ImageDeployView;
import dev.rekon.rollouts.view.KpackImage;

/**
 * One row per kpack Image the shown ImageDeploys name, existing or not, with the ImageDeploys that name it:
 * the other end of the page's links from an ImageDeploy to its Image.
 */
public final class ImageRows {

    private ImageRows() {
    }

    public static List<ImageRow> rows(List<ImageDeployView> imageDeploys, List<KpackImage> images) {
        Map<String, KpackImage> byKey = new HashMap<>();
        images.forEach(i -> byKey.put(i.namespace() + "/" + i.name(), i));
        Map<String, List<String>> usedBy = new TreeMap<>();
        for (ImageDeployView v : imageDeploys) {
            v.refs().stream().map(r -> v.namespace() + "/" + r.imageName()).distinct()
                    .forEach(k -> usedBy.computeIfAbsent(k, x -> new ArrayList<>()).add(v.name()));
        }
        List<ImageRow> rows = new ArrayList<>();
        usedBy.forEach((key, users) -> {
            KpackImage i = byKey.get(key);
            String[] nsName = key.split("/", 2);
            rows.add(i == null ? new ImageRow(nsName[0], nsName[1], false, null, null, false, "does not exist", users)
                    : new ImageRow(i.namespace(), i.name(), true, i.latestImage(), i.buildCounter(), i.rollable(),
                            i.rollable() ? null : i.notReadyMessage(), users));
        });
        return rows;
    }
}
