package dev.rekon.webhooks;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;

import dev.rekon.core.InvalidEventException;

/**
 * Reading vendor JSON defensively and checking that what it names is a valid image reference (distribution's
 * grammar for repositories, tags and digests), so that nothing downstream ever sees an impossible name.
 */
final class Payloads {

    private static final Pattern HOST = Pattern.compile("[A-Za-z0-9](?:[A-Za-z0-9.-]{0,252}[A-Za-z0-9])?(?::[0-9]{1,5})?");
    private static final Pattern COMPONENT = Pattern.compile("[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*");
    private static final Pattern TAG = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}");
    private static final Pattern DIGEST = Pattern.compile("[a-z0-9]+(?:[.+_-][a-z0-9]+)*:[a-zA-Z0-9=_-]+");
    private static final Pattern SHA256 = Pattern.compile("sha256:[a-f0-9]{64}");
    private static final int MAX_REPOSITORY = 255;

    private Payloads() {
    }

    /** The non-blank text at the path, or null when any step is missing or not text. */
    static String text(JsonNode node, String... path) {
        JsonNode n = node;
        for (String step : path) {
            if (n == null || !n.isObject()) {
                return null;
            }
            n = n.get(step);
        }
        return n != null && n.isTextual() && !n.asText().isBlank() ? n.asText().trim() : null;
    }

    static JsonNode object(JsonNode node, String field, String what) {
        JsonNode n = node == null ? null : node.get(field);
        if (n == null || !n.isObject()) {
            throw new InvalidEventException(what + ": '" + field + "' must be a JSON object");
        }
        return n;
    }

    static String required(String value, String what) {
        if (value == null) {
            throw new InvalidEventException(what + " is missing");
        }
        return value;
    }

    static String registry(String host, String what) {
        if (host == null || !HOST.matcher(host).matches()) {
            throw new InvalidEventException(what + ": registry host '" + host + "' is not a host[:port]");
        }
        return host.toLowerCase(java.util.Locale.ROOT);
    }

    static String repository(String name, String what) {
        if (name == null || name.length() > MAX_REPOSITORY || name.startsWith("/") || name.endsWith("/")) {
            throw new InvalidEventException(what + ": repository '" + name + "' is not a valid image repository name");
        }
        for (String part : name.split("/", -1)) {
            if (!COMPONENT.matcher(part).matches()) {
                throw new InvalidEventException(what + ": repository '" + name
                        + "' is not a valid image repository name (lower-case path components)");
            }
        }
        return name;
    }

    /** A tag, or null when absent; a digest given in place of a tag (push by digest) counts as absent. */
    static String tag(String tag, String what) {
        if (tag == null || DIGEST.matcher(tag).matches()) {
            return null;
        }
        if (!TAG.matcher(tag).matches()) {
            throw new InvalidEventException(what + ": tag '" + tag + "' is not a valid image tag");
        }
        return tag;
    }

    /** The value when it is a valid tag; null when absent, a digest, or no tag at all (for fallbacks and notes). */
    static String tagOrNull(String value) {
        return value == null || !TAG.matcher(value).matches() ? null : tag(value, "");
    }

    static String digest(String digest, String what) {
        if (digest == null) {
            return null;
        }
        if (!DIGEST.matcher(digest).matches() || digest.startsWith("sha256:") && !SHA256.matcher(digest).matches()) {
            throw new InvalidEventException(what + ": digest '" + digest + "' is not an OCI digest (sha256:<64 hex>)");
        }
        return digest;
    }

    /** Splits host/path[:tag][@digest] into host and repository; null when it has no host part. */
    static String[] hostAndRepository(String reference) {
        if (reference == null) {
            return null;
        }
        String ref = reference.replaceFirst("^[a-z]+://", "");
        int at = ref.indexOf('@');
        if (at >= 0) {
            ref = ref.substring(0, at);
        }
        int slash = ref.indexOf('/');
        if (slash <= 0) {
            return null;
        }
        String path = ref.substring(slash + 1);
        int colon = path.lastIndexOf(':');
        if (colon >= 0) {
            path = path.substring(0, colon);
        }
        return new String[] { ref.substring(0, slash), path };
    }

    /**
     * Whether a reference starts with a registry host, by Docker's rule: a first path component with a dot, a port
     * or {@code localhost}; otherwise the reference is a Docker Hub name ({@code team/app} is {@code docker.io/team/app}).
     */
    static boolean namesHost(String reference) {
        String ref = reference.replaceFirst("^[a-z]+://", "");
        int slash = ref.indexOf('/');
        String first = slash < 0 ? "" : ref.substring(0, slash);
        return first.contains(".") || first.contains(":") || first.equals("localhost");
    }

    /** The tag of host/path:tag[@digest], or null when it names none. */
    static String tagOf(String reference) {
        String ref = reference.replaceFirst("^[a-z]+://", "");
        int at = ref.indexOf('@');
        String path = (at < 0 ? ref : ref.substring(0, at)).substring(ref.indexOf('/') + 1);
        int colon = path.lastIndexOf(':');
        return colon < 0 || path.indexOf('/', colon) >= 0 ? null : path.substring(colon + 1);
    }

    /** A stable id for senders that give none, from the fields that make a delivery the same delivery. */
    static String derivedId(String format, Object... parts) {
        StringBuilder s = new StringBuilder(format);
        for (Object p : parts) {
            s.append('\n').append(p);
        }
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(s.toString().getBytes(StandardCharsets.UTF_8));
            return format + ":" + HexFormat.of().formatHex(hash, 0, 16);
        } catch (NoSuchAlgorithmException impossible) {
            throw new IllegalStateException(impossible);
        }
    }
}
