package dev.rekon.rollouts.plan;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

import dev.rekon.rollouts.view.AppliedImage;
import dev.rekon.rollouts.view.ImageDeployView.ContainerRef;
import dev.rekon.rollouts.view.KpackImage;

/**
 * Decides which builds of the Images an event is about may roll out: each referenced kpack Image the event
 * concerns is missing (it does not exist), not ready, older than the build already applied (never backwards), or
 * usable.
 */
record Candidates(Map<String, KpackImage> usable, Set<String> missing, Set<String> notReady, Set<String> older) {

    static Candidates of(RolloutPlanner.Request r) {
        Candidates c = new Candidates(new LinkedHashMap<>(), new LinkedHashSet<>(), new LinkedHashSet<>(),
                new LinkedHashSet<>());
        Map<String, AppliedImage> applied = RolloutStatus.memory(r);
        for (ContainerRef ref : r.imageDeploy().refs()) {
            String name = ref.imageName();
            if (r.concerned().contains(name) && !c.usable.containsKey(name)) {
                c.sort(name, r.images().get(name), applied.get(name));
            }
        }
        return c;
    }

    private void sort(String name, KpackImage image, AppliedImage applied) {
        if (image == null) {
            missing.add(name);
        } else if (!image.rollable()) {
            notReady.add(name);
        } else if (applied != null && applied.isNewerThan(image)) {
            older.add(name);
        } else {
            usable.put(name, image);
        }
    }
}
