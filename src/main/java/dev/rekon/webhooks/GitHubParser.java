package dev.rekon.webhooks;

import static dev.rekon.webhooks.Payloads.text;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * GitHub {@code package} and {@code registry_package} webhooks (event name in {@code X-GitHub-Event}): only
 * {@code published} (or {@code create}) container packages are image pushes. The image name comes from
 * {@code package_url} (ghcr.io names are lower-case), else as the peers read older shapes (see
 * {@link #withoutPackageUrl}); the tag as {@link GitHubTags} decides; the digest from the tag, the manifest, or a
 * version name that is one. A version without a tag (untagged, or one platform of a multi-platform image) is ignored
 * ({@value #UNTAGGED}). Whatever was not read from its documented field is named in the push's {@code readFrom}.
 * The delivery id is {@code X-GitHub-Delivery}; without it, one derived from the push.
 */
public final class GitHubParser implements PayloadParser {

    static final Set<String> EVENTS = Set.of("package", "registry_package");
    /** GitHub documents {@code published}; Keel's suite routes a {@code create}, which no GitHub documentation names. */
    static final Set<String> PUBLISHED = Set.of("published", "create");
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
        if (action == null || !PUBLISHED.contains(action)) {
            return Delivery.ignored("NotPublished", what + " action '" + action + "' is not 'published'");
        }
        JsonNode pkg = Payloads.object(body, event, what);
        if (!isContainer(pkg)) {
            return Delivery.ignored("NotAContainerPackage", what + " is about a " + text(pkg, "package_type")
                    + " package, not a container image");
        }
        List<String> readFrom = new ArrayList<>();
        if (!"published".equals(action)) {
            readFrom.add("action '" + action + "' taken as 'published'");
        }
        return push(event, body, pkg, headers, readFrom);
    }

    private static Delivery push(String event, JsonNode body, JsonNode pkg, Map<String, String> headers,
            List<String> readFrom) {
        String what = "GitHub " + event + " event";
        JsonNode version = Payloads.object(pkg, "package_version", what);
        String digest = Payloads.digest(firstNonNull(text(version, "container_metadata", "tag", "digest"),
                text(version, "container_metadata", "manifest", "digest"), digestOrNull(text(version, "name")),
                digestOrNull(text(version, "version"))), what);
        String[] hostAndRepo = Payloads.hostAndRepository(text(version, "package_url"));
        String host = Payloads.registry(hostAndRepo == null ? DEFAULT_REGISTRY : hostAndRepo[0], what);
        String repository = hostAndRepo == null ? withoutPackageUrl(event, body, pkg, readFrom) : hostAndRepo[1];
        repository = Payloads.repository(repository == null ? null : repository.toLowerCase(Locale.ROOT), what);
        String tag = GitHubTags.tag(version, what, readFrom);
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
        return Delivery.of(new ImagePushed(host, repository, tag, digest, id,
                readFrom.isEmpty() ? null : String.join("; ", readFrom)));
    }

    /**
     * The repository of a payload without {@code package_url}, read as the peers read it: the older
     * {@code registry_package} shape by the repository's {@code full_name} (as Keel), a {@code package} by its owner
     * (as Argo CD Image Updater), else by its namespace (as Keel), each with the package name.
     */
    private static String withoutPackageUrl(String event, JsonNode body, JsonNode pkg, List<String> readFrom) {
        String fullName = text(body, "repository", "full_name");
        String name = text(pkg, "name");
        String[][] candidates = {
                { "registry_package".equals(event) ? fullName : null, "repository.full_name" },
                { text(pkg, "owner", "login") == null || name == null ? null : text(pkg, "owner", "login") + "/" + name,
                        event + ".owner.login and " + event + ".name" },
                { text(pkg, "namespace") == null || name == null ? null : text(pkg, "namespace") + "/" + name,
                        event + ".namespace and " + event + ".name" } };
        for (String[] c : candidates) {
            if (c[0] != null) {
                readFrom.add("repository from " + c[1] + " (no package_version.package_url)");
                return c[0];
            }
        }
        return null;
    }

    private static boolean isContainer(JsonNode pkg) {
        String type = text(pkg, "package_type");
        String ecosystem = text(pkg, "ecosystem");
        return type != null && CONTAINER_TYPES.contains(type.toLowerCase(Locale.ROOT))
                || ecosystem != null && CONTAINER_TYPES.contains(ecosystem.toLowerCase(Locale.ROOT));
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
