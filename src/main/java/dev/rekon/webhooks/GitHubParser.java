package dev.rekon.webhooks;

import static dev.rekon.webhooks.Payloads.text;

import java.util.Locale;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * GitHub {@code package} and {@code registry_package} webhooks (event name in {@code X-GitHub-Event}): only
 * {@code published} container packages are image pushes. The image name comes from {@code package_url} (ghcr.io
 * names are lower-case), else the owner and package name; the tag from {@code container_metadata.tag.name}, else
 * {@code package_version.version} when that is not a digest; the digest from the tag, the manifest, or a version
 * name that is one. A version without a tag (untagged, or one platform of a multi-platform image) is ignored
 * ({@value #UNTAGGED}). The delivery id is {@code X-GitHub-Delivery}; without it, one derived from the push.
 */
public final class GitHubParser implements PayloadParser {

    static final Set<String> EVENTS = Set.of("package", "registry_package");
    static final Set<String> CONTAINER_TYPES = Set.of("container", "docker");
    public static final String DEFAULT_REGISTRY = "ghcr.io";
    public static final String UNTAGGED = "UntaggedVersion";

    @Override
    public Delivery parse(JsonNode body, Map<String, String> headers) {
        String event = headers.get("x-github-event");
        if ("ping".equals(event)) {
            return Delivery.ignored("Ping", "GitHub ping received; subscribe this webhook to 'Packages' events");
        }
        if (event == null || !EVENTS.contains(event)) {
            return Delivery.ignored("NotAPackageEvent", "GitHub event '" + event
                    + "' is not 'package' or 'registry_package'; subscribe only to package events");
        }
        String what = "GitHub " + event + " event";
        String action = text(body, "action");
        if (!"published".equals(action)) {
            return Delivery.ignored("NotPublished", what + " action '" + action + "' is not 'published'");
        }
        JsonNode pkg = Payloads.object(body, event, what);
        if (!isContainer(pkg)) {
            return Delivery.ignored("NotAContainerPackage", what + " is about a " + text(pkg, "package_type")
                    + " package, not a container image");
        }
        JsonNode version = Payloads.object(pkg, "package_version", what);
        String digest = Payloads.digest(firstNonNull(text(version, "container_metadata", "tag", "digest"),
                text(version, "container_metadata", "manifest", "digest"), digestOrNull(text(version, "name")),
                digestOrNull(text(version, "version"))), what);
        String[] hostAndRepo = Payloads.hostAndRepository(text(version, "package_url"));
        String host = Payloads.registry(hostAndRepo == null ? DEFAULT_REGISTRY : hostAndRepo[0], what);
        String repository = hostAndRepo == null ? ownerSlashName(pkg) : hostAndRepo[1];
        repository = Payloads.repository(repository == null ? null : repository.toLowerCase(Locale.ROOT), what);
        String tag = tag(version, what);
        if (tag == null) {
            return Delivery.ignored(UNTAGGED, what + " published " + host + "/" + repository + (digest == null ? ""
                    : "@" + digest) + " without a tag (an untagged version, or one platform of a multi-platform"
                    + " image); only tagged versions are routed");
        }
        String id = headers.get("x-github-delivery");
        if (id == null) {
            id = Payloads.derivedId("github", host, repository, tag, digest, pkg.path("id").asText(),
                    version.path("id").asText(), text(version, "updated_at"), text(version, "created_at"));
        }
        return Delivery.of(new ImagePushed(host, repository, tag, digest, id));
    }

    /** The tag of {@code container_metadata}, else the version when it is a tag (not a digest, valid as a tag). */
    private static String tag(JsonNode version, String what) {
        String tag = text(version, "container_metadata", "tag", "name");
        if (tag != null) {
            return Payloads.tag(tag, what);
        }
        String v = text(version, "version");
        try {
            return v == null ? null : Payloads.tag(v, what);
        } catch (dev.rekon.core.InvalidEventException notATag) {
            return null;
        }
    }

    private static boolean isContainer(JsonNode pkg) {
        String type = text(pkg, "package_type");
        String ecosystem = text(pkg, "ecosystem");
        return type != null && CONTAINER_TYPES.contains(type.toLowerCase(Locale.ROOT))
                || ecosystem != null && CONTAINER_TYPES.contains(ecosystem.toLowerCase(Locale.ROOT));
    }

    private static String ownerSlashName(JsonNode pkg) {
        String owner = text(pkg, "owner", "login");
        String name = text(pkg, "name");
        return owner == null || name == null ? null : owner + "/" + name;
    }

    private static String digestOrNull(String version) {
        return version != null && version.startsWith("sha256:") ? version : null;
    }

    private static String firstNonNull(String... values) {
        for (String v : values) {
            if (v != null) {
                return v;
            }
        }
        return null;
    }
}
