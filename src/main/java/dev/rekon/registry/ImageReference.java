package dev.rekon.registry;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * A parsed image reference {@code [registry/]repository[:tag][@digest]}, with docker's defaults: no registry
 * means Docker Hub ({@code docker.io}, API host {@code registry-1.docker.io}, {@code library/} for single names),
 * no tag and no digest means {@code latest}.
 */
public record ImageReference(String registry, String repository, String tag, String digest) {

    public static final String DOCKER_HUB = "docker.io";
    private static final Pattern DIGEST = Pattern.compile("[a-z0-9]+(?:[.+_-][a-z0-9]+)*:[a-zA-Z0-9=_-]{32,}");
    private static final Pattern REPOSITORY = Pattern.compile("[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?:/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*");
    private static final Pattern TAG = Pattern.compile("[\\w][\\w.-]{0,127}");

    /** @throws IllegalArgumentException naming the reference and what is wrong with it */
    public static ImageReference parse(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("image reference is empty");
        }
        String rest = text.trim();
        String digest = null;
        int at = rest.indexOf('@');
        if (at >= 0) {
            digest = rest.substring(at + 1);
            rest = rest.substring(0, at);
            if (!DIGEST.matcher(digest).matches()) {
                throw new IllegalArgumentException("image reference '" + text + "' has an invalid digest '" + digest + "'");
            }
        }
        String registry = DOCKER_HUB;
        int slash = rest.indexOf('/');
        if (slash > 0) {
            String first = rest.substring(0, slash);
            if (first.contains(".") || first.contains(":") || first.equals("localhost") || !first.equals(first.toLowerCase(Locale.ROOT))) {
                registry = first;
                rest = rest.substring(slash + 1);
            }
        }
        String tag = null;
        int colon = rest.lastIndexOf(':');
        if (colon >= 0) {
            tag = rest.substring(colon + 1);
            rest = rest.substring(0, colon);
            if (!TAG.matcher(tag).matches()) {
                throw new IllegalArgumentException("image reference '" + text + "' has an invalid tag '" + tag + "'");
            }
        }
        if (!REPOSITORY.matcher(rest).matches()) {
            throw new IllegalArgumentException("image reference '" + text + "' has an invalid repository '" + rest
                    + "' (lower case letters, digits, separators . _ - and /)");
        }
        if (registry.equals(DOCKER_HUB) && !rest.contains("/")) {
            rest = "library/" + rest;
        }
        if (tag == null && digest == null) {
            tag = "latest";
        }
        return new ImageReference(registry, rest, tag, digest);
    }

    /** The host the Distribution API is served from. */
    public String apiHost() {
        return registry.equals(DOCKER_HUB) ? "registry-1.docker.io" : registry;
    }

    /** What to ask the manifests endpoint for: the digest when pinned, else the tag. */
    public String manifestReference() {
        return digest != null ? digest : tag;
    }

    public ImageReference withDigest(String d) {
        return new ImageReference(registry, repository, tag, d);
    }

    /** The same repository, for comparing images across tags and digests. */
    public String repositoryKey() {
        return registry + "/" + repository;
    }

    @Override
    public String toString() {
        return registry + "/" + repository + (tag == null ? "" : ":" + tag) + (digest == null ? "" : "@" + digest);
    }
}
