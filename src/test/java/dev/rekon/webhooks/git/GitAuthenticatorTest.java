package dev.rekon.webhooks.git;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import dev.rekon.webhooks.Signatures;

class GitAuthenticatorTest {

    static final byte[] BODY = "{\"ref\":\"refs/heads/main\"}".getBytes(StandardCharsets.UTF_8);
    static final GitAuthenticator BOTH = with(Map.of(GitAuthenticator.HMAC_PROPERTY, "key",
            GitAuthenticator.TOKEN_PROPERTY, "tok"));

    static GitAuthenticator with(Map<String, String> config) {
        return new GitAuthenticator(name -> Optional.ofNullable(config.get(name)));
    }

    static String hex(String key) {
        return Signatures.sign(key, BODY).substring("sha256=".length());
    }

    @ParameterizedTest(name = "{0}: {1} -> {2}")
    @CsvSource(delimiter = '|', nullValues = "-", value = {
            "x-hub-signature-256 | sha256=KEY | -",
            "x-hub-signature-256 | SHA256=KEY | -",
            "x-hub-signature-256 | sha256=OTHER | wrong signature in X-Hub-Signature-256; the webhook's secret must equal rekon.webhooks.git.hmac-secret",
            "x-gitea-signature | KEY | -",
            "x-gitea-signature | OTHER | wrong signature in X-Gitea-Signature; the webhook's secret must equal rekon.webhooks.git.hmac-secret",
            "x-forgejo-signature | KEY | -",
            "x-hub-signature | sha256=KEY | -",
            "x-hub-signature | sha256=OTHER | wrong signature in X-Hub-Signature; the webhook's secret must equal rekon.webhooks.git.hmac-secret",
            "x-hub-signature | sha1=0123 | no signature and no token",
            "x-gitlab-token | tok | -",
            "x-gitlab-token | ' tok ' | -",
            "x-gitlab-token | tok2 | wrong X-Gitlab-Token; the webhook's secret token must equal rekon.webhooks.git.token",
            "x-other | KEY | no signature and no token" })
    void checksEachHostsHeader(String header, String value, String refusal) {
        String presented = value.replace("KEY", hex("key")).replace("OTHER", hex("other"));
        Optional<String> answer = BOTH.refusal(Map.of(header, presented), BODY);
        if (refusal == null) {
            assertEquals(Optional.empty(), answer);
        } else {
            assertTrue(answer.orElse("").startsWith(refusal), answer.toString());
        }
    }

    @Test
    void everyPresentedCredentialMustMatch() {
        Map<String, String> headers = new HashMap<>(Map.of("x-gitea-signature", hex("key"),
                "x-hub-signature-256", "sha256=" + hex("key"), "x-hub-signature", "sha1=ignored"));
        assertEquals(Optional.empty(), BOTH.refusal(headers, BODY));
        headers.put("x-gitlab-token", "nope");
        assertTrue(BOTH.refusal(headers, BODY).orElseThrow().startsWith("wrong X-Gitlab-Token"));
    }

    @Test
    void refusesEverythingWhenNoSecretIsConfiguredAndNamesTheProperties() {
        String refusal = with(Map.of(GitAuthenticator.HMAC_PROPERTY, "  ")).refusal(Map.of("x-gitlab-token", "t"), BODY)
                .orElseThrow();
        assertTrue(refusal.contains("rekon.webhooks.git.hmac-secret") && refusal.contains("rekon.webhooks.git.token"),
                refusal);
    }

    @Test
    void namesThePropertyACredentialNeedsWhenOnlyTheOtherIsConfigured() {
        assertEquals(Optional.of("X-Gitlab-Token was sent but rekon.webhooks.git.token is not set; set it to the "
                + "webhook's secret token"), with(Map.of(GitAuthenticator.HMAC_PROPERTY, "key"))
                        .refusal(Map.of("x-gitlab-token", "tok"), BODY));
        assertTrue(with(Map.of(GitAuthenticator.TOKEN_PROPERTY, "tok"))
                .refusal(Map.of("x-hub-signature-256", "sha256=" + hex("key")), BODY).orElseThrow()
                .startsWith("X-Hub-Signature-256 was sent but rekon.webhooks.git.hmac-secret is not set"));
    }
}
