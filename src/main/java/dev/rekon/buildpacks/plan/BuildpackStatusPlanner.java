package dev.rekon.buildpacks.plan;

import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;

import dev.rekon.buildpacks.view.BuildpackEntry;
import dev.rekon.buildpacks.view.BuildpackView;
import dev.rekon.buildpacks.view.ImageRead;
import dev.rekon.cluster.Conditions;
import dev.rekon.registry.RegistryImage;

/**
 * Decides a Buildpack's or ClusterBuildpack's status (kpack v1alpha2 shape) from its buildpackage image:
 * {@code buildpacks[]} from the image labels and manifest, {@code Ready} True; or, when the image cannot be
 * read or is no buildpackage, no buildpacks and {@code Ready} False saying why. Writes only what changed.
 */
public final class BuildpackStatusPlanner {

    public static final String READY = "Ready";
    public static final String READ = "BuildpackageRead";
    public static final String NO_IMAGE = "NoImage";
    static final Set<KpackStatus.Field> OWNED = Set.of(KpackStatus.Field.BUILDPACKS, KpackStatus.Field.CONDITIONS,
            KpackStatus.Field.OBSERVED_GENERATION);
    private static final Pattern DIGEST = Pattern.compile("\\((sha256:[0-9a-f]{64})\\)$");

    private BuildpackStatusPlanner() {
    }

    public static StatusPlan plan(BuildpackView bp, ImageRead read, Instant now) {
        if (bp.image() == null) {
            return failed(bp, NO_IMAGE, bp.kind() + " " + bp.name() + " names no image; set spec.source.image", now);
        }
        if (read instanceof ImageRead.Unreadable u) {
            return failed(bp, u.reason(), u.message(), now);
        }
        RegistryImage image = ((ImageRead.Found) read).image();
        List<BuildpackEntry> entries;
        try {
            entries = BuildpackageLabels.read(image, bp.image());
        } catch (BuildpackageLabels.Problem p) {
            return failed(bp, p.reason, p.getMessage(), now);
        }
        String message = "read " + entries.size() + " buildpacks from " + bp.image() + " (" + image.digest() + ")";
        return StatusDiff.plan(bp.ref(), bp.status(), status(bp, true, READ, message, now, entries), OWNED, READ,
                message);
    }

    /** The manifest digest a status was read from (its Ready message names it), or null when it names none. */
    public static String digestRead(JsonNode status) {
        JsonNode ready = status == null ? null : Conditions.find(status.get("conditions"), READY);
        if (ready == null || !READ.equals(ready.path("reason").asText())) {
            return null;
        }
        Matcher m = DIGEST.matcher(ready.path("message").asText());
        return m.find() ? m.group(1) : null;
    }

    private static StatusPlan failed(BuildpackView bp, String reason, String message, Instant now) {
        return StatusDiff.plan(bp.ref(), bp.status(), status(bp, false, reason, message, now, null), OWNED, reason,
                message);
    }

    /** {@code buildpacks} null when the buildpackage was not read: the status then lists none. */
    private static KpackStatus status(BuildpackView bp, boolean ok, String reason, String message, Instant now,
            List<BuildpackEntry> buildpacks) {
        return new KpackStatus(bp.generation(), StatusDiff.conditions(bp.status(), bp.generation(), now,
                new Conditions.Condition(READY, ok ? "True" : "False", reason, message)), buildpacks, null, null);
    }
}
