package dev.rekon.webhooks;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Decides whether a webhook request comes from the configured sender, before its body is even parsed. Per endpoint
 * ({@code rekon.webhooks.<endpoint>.}): {@code token} (Authorization header, or the path for Docker Hub) and/or
 * {@code hmac-secret} (HMAC-SHA256 of the body in {@code signature-header}); every configured check must pass, and
 * an endpoint with neither configured refuses everything. Messages never contain a secret or what was presented.
 */
public final class WebhookAuthenticator {

    public static final String PREFIX = "rekon.webhooks.";
    static final String GITHUB_SIGNATURE_HEADER = "X-Hub-Signature-256";
    static final String GENERIC_SIGNATURE_HEADER = "X-Signature-256";

    private record Endpoint(Secret token, Secret hmac, String signatureHeader) {
    }

    private final Map<WebhookFormat, Endpoint> endpoints = new EnumMap<>(WebhookFormat.class);

    /** @param config reads one config property by name */
    public WebhookAuthenticator(Function<String, Optional<String>> config) {
        for (WebhookFormat f : WebhookFormat.values()) {
            String p = PREFIX + f.key() + ".";
            String defaultHeader = f.auth() == WebhookFormat.Auth.GITHUB_SIGNATURE ? GITHUB_SIGNATURE_HEADER : GENERIC_SIGNATURE_HEADER;
            Secret token = f.auth() == WebhookFormat.Auth.GITHUB_SIGNATURE ? null
                    : Secret.ofNullable(config.apply(p + "token").orElse(null));
            endpoints.put(f, new Endpoint(token, Secret.ofNullable(config.apply(p + "hmac-secret").orElse(null)),
                    config.apply(p + "signature-header").orElse(defaultHeader)));
        }
    }

    /**
     * @param headers request headers, names lower-cased
     * @param pathToken the last path segment (Docker Hub), or null
     * @return empty when authenticated, else why not (safe to send back and to log)
     */
    public Optional<String> refusal(WebhookFormat format, Map<String, String> headers, byte[] body, String pathToken) {
        Endpoint e = endpoints.get(format);
        String p = PREFIX + format.key() + ".";
        if (e.token() == null && e.hmac() == null) {
            return Optional.of("the " + format.key() + " endpoint has no secret configured; set "
                    + (format.auth() == WebhookFormat.Auth.GITHUB_SIGNATURE ? p + "hmac-secret" : p + "token or " + p + "hmac-secret"));
        }
        if (e.token() != null) {
            boolean ok = format.auth() == WebhookFormat.Auth.PATH_TOKEN ? e.token().matches(pathToken)
                    : tokenPresented(e.token(), headers.get("authorization"));
            if (!ok) {
                return Optional.of(format.auth() == WebhookFormat.Auth.PATH_TOKEN
                        ? "wrong or missing token in the path; POST to " + format.path() + "/<token>"
                        : "wrong or missing token; send 'Authorization: Bearer <token>'");
            }
        }
        if (e.hmac() != null && !e.hmac().signed(body, signature(headers.get(e.signatureHeader().toLowerCase(java.util.Locale.ROOT))))) {
            return Optional.of("wrong or missing signature; send '" + e.signatureHeader()
                    + ": sha256=<hex HMAC-SHA256 of the body>'");
        }
        return Optional.empty();
    }

    /** Bearer, a bare value (Harbor's "Auth Header" field) or Basic with the token as password (URL user info). */
    private static boolean tokenPresented(Secret token, String authorization) {
        if (authorization == null) {
            return false;
        }
        String a = authorization.trim();
        int space = a.indexOf(' ');
        String scheme = space < 0 ? "" : a.substring(0, space);
        String value = space < 0 ? a : a.substring(space + 1).trim();
        if (scheme.equalsIgnoreCase("Bearer")) {
            return token.matches(value);
        }
        if (scheme.equalsIgnoreCase("Basic")) {
            return token.matches(basicPassword(value));
        }
        return token.matches(a);
    }

    private static String basicPassword(String encoded) {
        try {
            String decoded = new String(Base64.getDecoder().decode(encoded), StandardCharsets.UTF_8);
            int colon = decoded.indexOf(':');
            return colon < 0 ? null : decoded.substring(colon + 1);
        } catch (IllegalArgumentException notBase64) {
            return null;
        }
    }

    private static String signature(String header) {
        if (header == null) {
            return null;
        }
        String h = header.trim();
        return h.regionMatches(true, 0, "sha256=", 0, 7) ? h.substring(7) : h;
    }
}
