package dev.rekon.declared.intent;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

import dev.rekon.core.ObjectRef;

/**
 * A DeclaredState as Rekon reads it: where its objects come from (spec.git), where they may go
 * (spec.namespaces), how it prunes and treats orphans, and what its status last recorded ({@code recorded}).
 * Made once from the object by {@link #of}, the only place its JSON paths are read; a field left out reads as its
 * default. Everything after reads these typed fields, so a status is compared as values, never as a tree.
 */
public record DeclaredStateView(String namespace, String name, String uid, long generation, String resourceVersion,
        boolean deleting, List<String> finalizers, String url, String branch, String path, String secretName,
        List<String> namespaces, boolean prune, boolean suspend, String serviceAccountName, boolean deleteOrphans,
        Duration gracePeriod, List<Ignore> ignore, DeclaredStateStatus recorded) {

    public static final String FINALIZER = "rekon.dev/declared-state";

    /** An {@code orphanedResources.ignore} entry: group and kind, and a name glob (null: every name). */
    public record Ignore(String group, String kind, String name) {
    }

    public DeclaredStateView {
        namespaces = List.copyOf(namespaces);
        finalizers = List.copyOf(finalizers);
        ignore = List.copyOf(ignore);
    }

    /** Whether it carries Rekon's finalizer (its objects are deleted before it goes). */
    public boolean finalized() {
        return finalizers.contains(FINALIZER);
    }

    public static DeclaredStateView of(JsonNode o) {
        JsonNode meta = o.path("metadata");
        JsonNode spec = o.path("spec");
        JsonNode git = spec.path("git");
        List<String> namespaces = new ArrayList<>();
        spec.path("namespaces").forEach(n -> namespaces.add(n.asText()));
        List<String> finalizers = new ArrayList<>();
        meta.path("finalizers").forEach(f -> finalizers.add(f.asText()));
        JsonNode orphans = spec.path("orphanedResources");
        List<Ignore> ignore = new ArrayList<>();
        orphans.path("ignore").forEach(i -> ignore.add(new Ignore(i.path("group").asText(""), i.path("kind").asText(""),
                i.path("name").asText(null))));
        String path = git.path("path").asText("").replaceAll("^\\./?|/+$", "");
        return new DeclaredStateView(meta.path("namespace").asText(), meta.path("name").asText(),
                meta.path("uid").asText(null), meta.path("generation").asLong(0),
                meta.path("resourceVersion").asText(null), meta.hasNonNull("deletionTimestamp"), finalizers,
                git.path("url").asText(""), git.path("branch").asText("main"), path,
                git.path("secretRef").path("name").asText(null), namespaces, spec.path("prune").asBoolean(true),
                spec.path("suspend").asBoolean(false), text(spec.path("serviceAccountName")),
                "Delete".equals(orphans.path("action").asText("Report")),
                GracePeriods.parse(orphans.path("gracePeriod").asText("10m")), ignore,
                DeclaredStateStatus.of(o.path("status")));
    }

    /** The objects its status records as applied, or about to be (written ahead). */
    public List<ObjectRef> inventory() {
        return recorded.inventory() == null ? List.of() : recorded.inventory().stream().map(e -> e.ref()).toList();
    }

    private static String text(JsonNode n) {
        String s = n.asText("");
        return s.isBlank() ? null : s;
    }

    /** The revision last applied, {@code <branch>@sha1:<commit>}, or null. */
    public String revision() {
        return recorded.revision();
    }

    /** The commit of the revision last applied, or null. */
    public String appliedCommit() {
        String r = revision();
        int at = r == null ? -1 : r.lastIndexOf("@sha1:");
        return at < 0 ? null : r.substring(at + "@sha1:".length());
    }
}
