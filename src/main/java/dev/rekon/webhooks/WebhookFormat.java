package dev.rekon.webhooks;

import java.util.Locale;
import java.util.Set;

/**
 * The webhook endpoints Rekon serves: each has its path under {@code /webhooks/}, its config key under
 * {@code rekon.webhooks.}, the content types its sender uses, its parser, and how its sender can authenticate.
 */
public enum WebhookFormat {

    DISTRIBUTION("distribution", Auth.BEARER_TOKEN, new DistributionParser(),
            "application/vnd.docker.distribution.events.v1+json", "application/vnd.docker.distribution.events.v2+json",
            "application/json"),
    HARBOR("harbor", Auth.BEARER_TOKEN, new HarborParser(), "application/json", "application/cloudevents+json"),
    DOCKERHUB("dockerhub", Auth.PATH_TOKEN, new DockerHubParser(), "application/json"),
    GITHUB("github", Auth.GITHUB_SIGNATURE, new GitHubParser(), "application/json"),
    QUAY("quay", Auth.BEARER_TOKEN, new QuayParser(), "application/json");

    /** How the sender proves itself, besides the optional generic HMAC signature every endpoint accepts. */
    public enum Auth {
        BEARER_TOKEN, PATH_TOKEN, GITHUB_SIGNATURE
    }

    private final String key;
    private final Auth auth;
    private final PayloadParser parser;
    private final Set<String> contentTypes;

    WebhookFormat(String key, Auth auth, PayloadParser parser, String... contentTypes) {
        this.key = key;
        this.auth = auth;
        this.parser = parser;
        this.contentTypes = Set.of(contentTypes);
    }

    public String key() {
        return key;
    }

    public String path() {
        return "/webhooks/" + key;
    }

    public Auth auth() {
        return auth;
    }

    public PayloadParser parser() {
        return parser;
    }

    public Set<String> contentTypes() {
        return contentTypes;
    }

    /** Whether a Content-Type header (parameters such as charset ignored) is one this sender uses. */
    public boolean accepts(String contentType) {
        if (contentType == null) {
            return false;
        }
        int semicolon = contentType.indexOf(';');
        String mediaType = (semicolon < 0 ? contentType : contentType.substring(0, semicolon)).trim().toLowerCase(Locale.ROOT);
        return contentTypes.contains(mediaType);
    }
}
