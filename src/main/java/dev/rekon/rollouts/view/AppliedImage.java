package dev.rekon.rollouts.view;

import java.time.Instant;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * One entry of {@code ImageDeploy.status.images}: what Rekon last applied for a kpack Image. It is the
 * memory that makes a late event harmless: an older build than this one is never applied.
 */
public record AppliedImage(String name, String image, Long buildCounter, Instant buildTime, String imageUid,
        Instant appliedAt) {

    public static AppliedImage fromJson(JsonNode n) {
        JsonNode counter = n.get("buildCounter");
        return new AppliedImage(n.path("name").asText(null), n.path("image").asText(null),
                counter != null && counter.canConvertToLong() ? counter.asLong() : null,
                KpackImage.parseTime(n.path("buildTime").asText(null)), n.path("imageUid").asText(null),
                KpackImage.parseTime(n.path("appliedAt").asText(null)));
    }

    public ObjectNode toJson() {
        ObjectNode n = JsonNodeFactory.instance.objectNode();
        n.put("name", name);
        if (image != null) {
            n.put("image", image);
        }
        if (buildCounter != null) {
            n.put("buildCounter", buildCounter);
        }
        if (buildTime != null) {
            n.put("buildTime", buildTime.toString());
        }
        if (imageUid != null) {
            n.put("imageUid", imageUid);
        }
        if (appliedAt != null) {
            n.put("appliedAt", appliedAt.toString());
        }
        return n;
    }

    /** The annotation text recording these builds: no times, so the same build gives the same text. */
    public static String annotation(java.util.Collection<AppliedImage> applied) {
        com.fasterxml.jackson.databind.node.ArrayNode out = JsonNodeFactory.instance.arrayNode();
        applied.forEach(a -> out.add(new AppliedImage(a.name, a.image, a.buildCounter, a.buildTime, a.imageUid, null)
                .toJson()));
        return out.toString();
    }

    /** The same image from the same build, whenever it was applied (a record without the Image's uid still matches). */
    public boolean sameBuild(AppliedImage other) {
        return other != null && java.util.Objects.equals(name, other.name) && java.util.Objects.equals(image, other.image)
                && java.util.Objects.equals(buildCounter, other.buildCounter)
                && java.util.Objects.equals(buildTime, other.buildTime);
    }

    /**
     * Whether {@code candidate} comes from an older build than this entry. Builds of a recreated Image
     * (another uid) restart at 1 and are never older; without a comparable number or time nothing is.
     */
    public boolean isNewerThan(KpackImage candidate) {
        return isNewer(candidate.uid(), candidate.buildCounter(), candidate.buildTime());
    }

    /** Whether this record is of a newer build of the same Image than {@code other}, by the same rules. */
    public boolean isNewerThan(AppliedImage other) {
        return isNewer(other.imageUid, other.buildCounter, other.buildTime);
    }

    private boolean isNewer(String uid, Long counter, Instant time) {
        if (imageUid != null && uid != null && !imageUid.equals(uid)) {
            return false;
        }
        if (buildCounter != null && counter != null) {
            return buildCounter > counter;
        }
        if (buildTime != null && time != null) {
            return buildTime.isAfter(time);
        }
        return false;
    }

    /** The build number, or the time, for messages. */
    public static String describe(Long counter, Instant time) {
        return counter != null ? "build " + counter : time != null ? "the build of " + time : "an unnumbered build";
    }
}
