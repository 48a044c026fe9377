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
 * The Buildpack and Builder rows of the page, each made from an object with the status the loop's report-mode plan
 * leaves it with (what the next event or resync writes): Ready with its reason, the image and digest a buildpack
 * was read from (the one its recheck compares with, {@link BuildpackStatusPlanner#digestRead}; for a status written
 * by another hand, the digest its {@code storeImage} is pinned to), and a Builder's resolved order in short
 * ({@code id@version} per group). A row whose Ready is False is a problem and comes first. An object whose plan needs
 * a buildpackage this process never read is not planned: its row says so ({@link #NOT_READ}), Ready Unknown.
 */
public final class BuildRows {

    public static final String NOT_READ = "BuildpackageNotRead";

    public static final Comparator<BuildpackRow> BUILDPACKS = Comparator.comparing((BuildpackRow r) -> !r.problem())
            .thenComparing(BuildpackRow::kind).thenComparing(r -> Objects.requireNonNullElse(r.namespace(), ""))
            .thenComparing(BuildpackRow::name);

    public static final Comparator<BuilderRow> BUILDERS = Comparator.comparing((BuilderRow r) -> !r.problem())
            .thenComparing(BuilderRow::kind).thenComparing(r -> Objects.requireNonNullElse(r.namespace(), ""))
            .thenComparing(BuilderRow::name);

    private BuildRows() {
    }

    /** What a row says of a buildpackage image this process never read. */
    public static String notRead(String image) {
        return "buildpackage " + image + " not read by this process yet; the next event or resync reads it";
    }

    public static List<BuildpackRow> buildpacks(List<BuildpackView> views) {
        List<BuildpackRow> rows = new ArrayList<>(views.stream().map(BuildRows::buildpack).toList());
        rows.sort(BUILDPACKS);
        return rows;
    }

    public static BuildpackRow buildpack(BuildpackView v) {
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
        return new BuildpackRow(v.kind(), v.namespace(), v.name(), v.image(), read != null ? read : digest(stored),
                status, "False".equals(status), text(ready, "reason", null), text(ready, "message", null),
                text(ready, "lastTransitionTime", null), provided);
    }

    /** A Buildpack whose image this process never read: nothing planned, nothing provided. */
    public static BuildpackRow notRead(BuildpackView v, String image) {
        return new BuildpackRow(v.kind(), v.namespace(), v.name(), v.image(), null, "Unknown", false, NOT_READ,
                notRead(image), null, List.of());
    }

    public static List<BuilderRow> builders(List<BuilderView> views) {
        List<BuilderRow> rows = new ArrayList<>(views.stream().map(BuildRows::builder).toList());
        rows.sort(BUILDERS);
        return rows;
    }

    public static BuilderRow builder(BuilderView v) {
        JsonNode ready = Conditions.find(v.status() == null ? null : v.status().path("conditions"), "Ready");
        String status = text(ready, "status", "Unknown");
        boolean failing = "False".equals(status);
        return new BuilderRow(v.kind(), v.namespace(), v.name(), status, failing, text(ready, "reason", null),
                failing ? text(ready, "message", null) : null, order(v));
    }

    /** A Builder whose order names an image this process never read: its order as the spec writes it. */
    public static BuilderRow notRead(BuilderView v, String image) {
        return new BuilderRow(v.kind(), v.namespace(), v.name(), "Unknown", false, NOT_READ, notRead(image),
                specOrder(v));
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
        return specOrder(v);
    }

    private static List<String> specOrder(BuilderView v) {
        List<String> groups = new ArrayList<>();
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
