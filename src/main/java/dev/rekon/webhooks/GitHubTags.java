package dev.rekon.webhooks;

import static dev.rekon.webhooks.Payloads.text;

import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Decides the tag of a GitHub package version. GitHub documents {@code container_metadata.tag.name}; when it is
 * absent, the version's {@code name}, then its {@code version}, is taken when it is a tag rather than a digest (the
 * order Argo CD Image Updater reads them in; older payloads carry only {@code version}). Either fallback, and a
 * {@code name} or {@code version} that names another tag than {@code container_metadata}, is noted in
 * {@code readFrom}.
 */
final class GitHubTags {

    static final List<String> FALLBACKS = List.of("name", "version");

    private GitHubTags() {
    }

    /** The tag, or null when the version has none (untagged, or only digests). */
    static String tag(JsonNode version, String what, List<String> readFrom) {
        String documented = text(version, "container_metadata", "tag", "name");
        if (documented != null) {
            String tag = Payloads.tag(documented, what);
            noteDisagreement(version, tag, readFrom);
            return tag;
        }
        for (String field : FALLBACKS) {
            String tag = Payloads.tagOrNull(text(version, field));
            if (tag != null) {
                readFrom.add("tag from package_version." + field + " (no container_metadata.tag.name)");
                return tag;
            }
        }
        return null;
    }

    private static void noteDisagreement(JsonNode version, String tag, List<String> readFrom) {
        for (String field : FALLBACKS) {
            String other = Payloads.tagOrNull(text(version, field));
            if (tag != null && other != null && !other.equals(tag)) {
                readFrom.add("tag from container_metadata.tag.name; package_version." + field + " says '" + other + "'");
            }
        }
    }
}
