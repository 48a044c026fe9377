package dev.rekon.webhooks;

import static dev.rekon.webhooks.Payloads.text;

import java.util.Locale;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * GitHub {@code package} and {@code registry_package} webhooks (event name in {@code X-GitHub-Event}): only
 * {@code published} container packages are image pushes. The delivery id is {@code X-GitHub-Delivery}; the image
 * name comes from {@code package_url} (ghcr.io names are lower-case).
 */
public final class GitHubParser implements PayloadParser {

    static final Set<String> EVENTS = Set.of("package", "registry_package");
    static final Set<String> CONTAINER_TYPES = Set.of("container", "docker");
    public static final String DEFAULT_REGISTRY = "ghcr.io";

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
        String tag = Payloads.tag(text(version, "container_metadata", "tag", "name"), what);
        String digest = firstNonNull(text(version, "container_metadata", "tag", "digest"),
                text(version, "container_metadata", "manifest", "digest"), digestOrNull(text(version, "version")));
        String[] hostAndRepo = Payloads.hostAndRepository(text(version, "package_url"));
        String host = hostAndRepo == null ? DEFAULT_REGISTRY : hostAndRepo[0];
        String repository = hostAndRepo == null ? ownerSlashName(pkg) : hostAndRepo[1];
        String id = headers.get("x-github-delivery");
        if (id == null) {
            id = Payloads.derivedId("github", version.path("id").asText(), digest, tag);
        }
        return Delivery.of(new ImagePushed(Payloads.registry(host, what),
                Payloads.repository(repository == null ? null : repository.toLowerCase(Locale.ROOT), what),
                tag, Payloads.digest(digest, what), id));
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
