package dev.rekon.webhooks.git;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

import dev.rekon.webhooks.Secret;

/**
 * Decides whether a git webhook comes from a host that knows Rekon's secret, before its body is parsed.
 * {@code rekon.webhooks.git.hmac-secret} checks the HMAC-SHA256 of the raw body in {@code X-Hub-Signature-256}
 * (GitHub, Forgejo, Gitea), {@code X-Gitea-Signature} / {@code X-Forgejo-Signature} (bare hex) and
 * {@code X-Hub-Signature} when it is {@code sha256=} (Bitbucket; GitHub's {@code sha1=} one is not read);
 * {@code rekon.webhooks.git.token} checks {@code X-Gitlab-Token}. A request must present at least one, and every
 * one it presents must match; with neither property set everything is refused. Comparisons take constant time;
 * messages never contain a secret or what was presented.
 */
public final class GitAuthenticator {

    public static final String HMAC_PROPERTY = "rekon.webhooks.git.hmac-secret";
    public static final String TOKEN_PROPERTY = "rekon.webhooks.git.token";
    /** Lower-cased header name → how the messages spell it. */
    private static final Map<String, String> SIGNATURE_HEADERS = new LinkedHashMap<>();

    static {
        SIGNATURE_HEADERS.put("x-hub-signature-256", "X-Hub-Signature-256");
        SIGNATURE_HEADERS.put("x-gitea-signature", "X-Gitea-Signature");
        SIGNATURE_HEADERS.put("x-forgejo-signature", "X-Forgejo-Signature");
        SIGNATURE_HEADERS.put("x-hub-signature", "X-Hub-Signature");
    }

    private final Secret hmac;
    private final Secret token;

    /** @param config reads one config property by name */
    public GitAuthenticator(Function<String, Optional<String>> config) {
        hmac = Secret.ofNullable(config.apply(HMAC_PROPERTY).orElse(null));
        token = Secret.ofNullable(config.apply(TOKEN_PROPERTY).orElse(null));
    }

    /**
     * @param headers request headers, names lower-cased
     * @return empty when authenticated, else why not (safe to send back and to log)
     */
    public Optional<String> refusal(Map<String, String> headers, byte[] body) {
        if (hmac == null && token == null) {
            return Optional.of("the git endpoint has no secret configured; set " + HMAC_PROPERTY
                    + " (the webhook secret of GitHub, Gitea, Forgejo or Bitbucket) or " + TOKEN_PROPERTY
                    + " (GitLab's secret token)");
        }
        boolean presented = false;
        for (Map.Entry<String, String> h : SIGNATURE_HEADERS.entrySet()) {
            String value = headers.get(h.getKey());
            if (value == null || h.getKey().equals("x-hub-signature") && !isSha256(value)) {
                continue;
            }
            presented = true;
            if (hmac == null) {
                return Optional.of(h.getValue() + " was sent but " + HMAC_PROPERTY
                        + " is not set; set it to the webhook's secret");
            }
            if (!hmac.signed(body, hex(value))) {
                return Optional.of("wrong signature in " + h.getValue() + "; the webhook's secret must equal "
                        + HMAC_PROPERTY);
            }
        }
        String presentedToken = headers.get("x-gitlab-token");
        if (presentedToken != null) {
            presented = true;
            if (token == null) {
                return Optional.of("X-Gitlab-Token was sent but " + TOKEN_PROPERTY
                        + " is not set; set it to the webhook's secret token");
            }
            if (!token.matches(presentedToken.trim())) {
                return Optional.of("wrong X-Gitlab-Token; the webhook's secret token must equal " + TOKEN_PROPERTY);
            }
        }
        if (!presented) {
            return Optional.of("no signature and no token: give the webhook a secret — GitHub, Gitea, Forgejo and "
                    + "Bitbucket then sign the body (X-Hub-Signature-256, X-Gitea-Signature, X-Hub-Signature) with "
                    + HMAC_PROPERTY + ", GitLab sends X-Gitlab-Token (" + TOKEN_PROPERTY + ")");
        }
        return Optional.empty();
    }

    private static boolean isSha256(String header) {
        return header.trim().regionMatches(true, 0, "sha256=", 0, 7);
    }

    private static String hex(String header) {
        String h = header.trim();
        return isSha256(h) ? h.substring(7) : h;
    }
}
