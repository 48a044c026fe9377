package dev.rekon.rollouts.plan;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.cluster.Conditions.Condition;
import dev.rekon.cluster.Conditions;
import dev.rekon.cluster.JsonEquality;
import dev.rekon.rollouts.view.AppliedImage;
import dev.rekon.rollouts.view.ImageDeployView;
import dev.rekon.rollouts.view.KpackImage;

/**
 * Composes the ImageDeploy status a rollout plan reports, and the record of applied builds: the builds applied
 * per kpack Image, the builds waiting while suspended, and the conditions. A status that says what the current
 * one says is null, so it is not written.
 */
final class RolloutStatus {

    static final String WAITING = "waiting";

    private RolloutStatus() {
    }

    /**
     * The status after rolling out {@code rolled}, with {@code waiting} builds (null for none) and the
     * conditions given (null ones left as they are); null when it equals the current status.
     */
    static ObjectNode compose(RolloutPlanner.Request r, Map<String, KpackImage> rolled, ArrayNode waiting,
            Condition... conditions) {
        ImageDeployView idp = r.imageDeploy();
        JsonNode current = idp.status();
        ObjectNode next = current.deepCopy();
        next.put("observedGeneration", idp.generation());
        next.put("deployment", idp.deploymentName());
        next.set("images", images(memory(r), rolled, r.now()));
        next.remove(WAITING);
        if (waiting != null && !waiting.isEmpty()) {
            next.set(WAITING, waiting);
        }
        JsonNode set = current.path("conditions");
        for (Condition c : conditions) {
            if (c != null) {
                set = Conditions.set(set, c, idp.generation(), r.now());
            }
        }
        if (set.isArray()) {
            next.set("conditions", set);
        }
        return JsonEquality.same(next, current) ? null : next;
    }

    /**
     * What was applied, by kpack Image name: the Deployment's annotation, written in the same guarded write
     * as its images, wins over the ImageDeploy status, which is written after it and may be behind (or, for
     * a Deployment patched before the annotation existed, the only record). A status that records a newer
     * build wins back: the Deployment view came from a watch that is behind, and the status must not regress.
     */
    static Map<String, AppliedImage> memory(RolloutPlanner.Request r) {
        Map<String, AppliedImage> merged = new LinkedHashMap<>(r.imageDeploy().applied());
        r.deployment().ifPresent(d -> d.applied().forEach((name, a) -> {
            AppliedImage recorded = merged.get(name);
            if (!a.sameBuild(recorded) && (recorded == null || !recorded.isNewerThan(a))) {
                merged.put(name, new AppliedImage(a.name(), a.image(), a.buildCounter(), a.buildTime(), a.imageUid(),
                        r.now()));
            }
        }));
        return merged;
    }

    static ArrayNode images(Map<String, AppliedImage> applied, Map<String, KpackImage> rolled, Instant now) {
        Map<String, AppliedImage> merged = new LinkedHashMap<>(applied);
        for (KpackImage img : rolled.values()) {
            AppliedImage old = merged.get(img.name());
            boolean same = old != null && img.latestImage().equals(old.image())
                    && Objects.equals(old.buildCounter(), img.buildCounter())
                    && Objects.equals(old.buildTime(), img.buildTime());
            if (!same) {
                merged.put(img.name(), record(img, old == null ? null : old.imageUid(), now));
            }
        }
        ArrayNode out = JsonNodeFactory.instance.arrayNode();
        merged.values().forEach(a -> out.add(a.toJson()));
        return out;
    }

    /** The builds that wait for {@code spec.suspend} to be lifted, as status entries (no time: nothing was applied). */
    static ArrayNode waiting(Iterable<KpackImage> images) {
        ArrayNode out = JsonNodeFactory.instance.arrayNode();
        images.forEach(img -> out.add(record(img, null, null).toJson()));
        return out;
    }

    /** The annotation value recording every build applied once this plan is: no times, so the same build gives the same text. */
    static String appliedBuilds(RolloutPlanner.Request r, Map<String, KpackImage> usable) {
        ArrayNode out = JsonNodeFactory.instance.arrayNode();
        for (JsonNode entry : images(memory(r), usable, r.now())) {
            ((ObjectNode) entry).remove("appliedAt");
            out.add(entry);
        }
        return out.toString();
    }

    private static AppliedImage record(KpackImage img, String previousUid, Instant at) {
        return new AppliedImage(img.name(), img.latestImage(), img.buildCounter(), img.buildTime(),
                img.uid() != null ? img.uid() : previousUid, at);
    }
}
