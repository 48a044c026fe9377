package dev.rekon.buildpacks.status;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

import com.fasterxml.jackson.databind.JsonNode;

import dev.rekon.buildpacks.plan.BuildpackStatusPlanner;
import dev.rekon.buildpacks.status.BuildSection.BuilderRow;
import dev.rekon.buildpacks.status.BuildSection.BuildpackRow;
import dev.rekon.buildpacks.view.BuilderSpecRef;
import dev.rekon.buildpacks.view.BuilderView;
import dev.rekon.buildpacks.view.BuildpackView;
import dev.rekon.cluster.Conditions;

/**
 * Reads the Buildpack and Builder rows off the statuses Rekon wrote (the plans its loop carried out). The page
 * reads no registry: planning a Buildpack reads its image, and so does planning a Builder whose order names a
 * buildpackage image directly; a Builder naming buildpacks by id or resource resolves from the catalog's statuses
 * alone, but which of those a resync would refresh first is known only from its images' HEADs. So a row is what
 * was written, and a report-mode resync says what the next pass changes. Ready with its reason, the image and digest
 * a buildpack was read from (the one its recheck compares with, {@link BuildpackStatusPlanner#digestRead}; for a
 * status written by another hand, the digest its {@code storeImage} is pinned to), and a Builder's resolved order
 * in short ({@code id@version} per group). A row whose Ready is False is a problem and comes first.
 */
public final class BuildRows {

    private BuildRows() {
    }

    public static List<BuildpackRow> buildpacks(List<BuildpackView> views) {
        List<BuildpackRow> rows = new ArrayList<>();
        for (BuildpackView v : views) {
            JsonNode ready = Conditions.find(v.status() == null ? null : v.status().path("conditions"), "Ready");
            List<String> provided = new ArrayList<>();
            String stored = null;
            if (v.status() != null) {
                for (JsonNode bp : v.status().path("buildpacks")) {
                    provided.add(bp.path("id").asText() + "@" + bp.path("version").asText());
                    if (stored == null) {
                        stored = bp.path("storeImage").path("image").asText(null);
                    }
                }
            }
            String status = text(ready, "status", "Unknown");
            String read = BuildpackStatusPlanner.digestRead(v.status());
            rows.add(new BuildpackRow(v.kind(), v.namespace(), v.name(), v.image(),
                    read != null ? read : digest(stored), status, "False".equals(status), text(ready, "reason", null), text(ready, "message", null),
                    text(ready, "lastTransitionTime", null), provided));
        }
        rows.sort(Comparator.comparing((BuildpackRow r) -> !r.problem()).thenComparing(BuildpackRow::kind)
                .thenComparing(r -> Objects.requireNonNullElse(r.namespace(), "")).thenComparing(BuildpackRow::name));
        return rows;
    }

    public static List<BuilderRow> builders(List<BuilderView> views) {
        List<BuilderRow> rows = new ArrayList<>();
        for (BuilderView v : views) {
            JsonNode ready = Conditions.find(v.status() == null ? null : v.status().path("conditions"), "Ready");
            String status = text(ready, "status", "Unknown");
            boolean failing = "False".equals(status);
            rows.add(new BuilderRow(v.kind(), v.namespace(), v.name(), status, failing, text(ready, "reason", null),
                    failing ? text(ready, "message", null) : null, order(v)));
        }
        rows.sort(Comparator.comparing((BuilderRow r) -> !r.problem()).thenComparing(BuilderRow::kind)
                .thenComparing(r -> Objects.requireNonNullElse(r.namespace(), "")).thenComparing(BuilderRow::name));
        return rows;
    }

    /** The resolved order when the status has one, else the order as the spec writes it. */
    private static List<String> order(BuilderView v) {
        List<String> groups = new ArrayList<>();
        JsonNode resolved = v.status() == null ? null : v.status().get("order");
        if (resolved != null && resolved.isArray() && !resolved.isEmpty()) {
            for (JsonNode entry : resolved) {
                List<String> ids = new ArrayList<>();
                entry.path("group").forEach(g -> ids.add(g.path("id").asText() + "@" + g.path("version").asText("")));
                groups.add(String.join(", ", ids));
            }
            return groups;
        }
        for (List<BuilderSpecRef> group : v.order()) {
            groups.add(String.join(", ", group.stream().map(BuildRows::named).toList()));
        }
        return groups;
    }

    private static String named(BuilderSpecRef r) {
        String what = r.id() != null ? r.id() : r.hasImage() ? r.image() : r.kind() + "/" + r.name();
        return r.version() == null ? what : what + "@" + r.version();
    }

    private static String digest(String image) {
        return image == null || !image.contains("@") ? null : image.substring(image.indexOf('@') + 1);
    }

    private static String text(JsonNode condition, String field, String otherwise) {
        return condition == null ? otherwise : condition.path(field).asText(otherwise);
    }
}
