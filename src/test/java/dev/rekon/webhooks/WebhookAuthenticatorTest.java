package dev.rekon.webhooks;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class WebhookAuthenticatorTest {

    static final byte[] BODY = "{\"events\":[]}".getBytes(StandardCharsets.UTF_8);

    static final WebhookAuthenticator AUTH = new WebhookAuthenticator(name -> Optional.ofNullable(Map.of(
            "rekon.webhooks.distribution.token", "s3cret",
            "rekon.webhooks.harbor.token", "h-token",
            "rekon.webhooks.harbor.hmac-secret", "h-key",
            "rekon.webhooks.harbor.signature-header", "X-Harbor-Signature",
            "rekon.webhooks.dockerhub.token", "path-token",
            "rekon.webhooks.github.hmac-secret", "gh-key",
            "rekon.webhooks.github.token", "ignored-for-github",
            "rekon.webhooks.quay.token", " ").get(name)));

    static String hmac(String key) {
        return Signatures.sign(key, BODY);
    }

    @ParameterizedTest(name = "{0} {1}={2} path={3} -> {4}")
    @CsvSource(delimiter = '|', nullValues = "-", value = {
            "DISTRIBUTION | authorization | Bearer s3cret | - | -",
            "DISTRIBUTION | authorization | bearer s3cret | - | -",
            "DISTRIBUTION | authorization | s3cret | - | -",
            "DISTRIBUTION | authorization | BASIC | - | -",
            "DISTRIBUTION | authorization | Bearer s3cret2 | - | wrong or missing token; send 'Authorization: Bearer <token>'",
            "DISTRIBUTION | authorization | Bearer | - | wrong or missing token; send 'Authorization: Bearer <token>'",
            "DISTRIBUTION | - | - | - | wrong or missing token; send 'Authorization: Bearer <token>'",
            "HARBOR | authorization | Bearer h-token | - | wrong or missing signature; send 'X-Harbor-Signature: sha256=<hex HMAC-SHA256 of the body>'",
            "HARBOR | x-harbor-signature | HARBOR_HMAC | - | wrong or missing token; send 'Authorization: Bearer <token>'",
            "DOCKERHUB | - | - | path-token | -",
            "DOCKERHUB | - | - | path-token2 | wrong or missing token in the path; POST to /webhooks/dockerhub/<token>",
            "DOCKERHUB | authorization | path-token | - | wrong or missing token in the path; POST to /webhooks/dockerhub/<token>",
            "GITHUB | x-hub-signature-256 | GITHUB_HMAC | - | -",
            "GITHUB | x-hub-signature-256 | HARBOR_HMAC | - | wrong or missing signature; send 'X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the body>'",
            "GITHUB | x-hub-signature | GITHUB_HMAC | - | wrong or missing signature; send 'X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the body>'",
            "QUAY | authorization | Bearer x | - | the quay endpoint has no secret configured; set rekon.webhooks.quay.token or rekon.webhooks.quay.hmac-secret",
    })
    void decides(WebhookFormat format, String header, String value, String pathToken, String refusal) {
        Map<String, String> headers = new HashMap<>();
        if (header != null) {
            headers.put(header, switch (String.valueOf(value)) {
                case "GITHUB_HMAC" -> hmac("gh-key");
                case "HARBOR_HMAC" -> hmac("h-key");
                case "BASIC" -> "Basic " + Base64.getEncoder().encodeToString("rekon:s3cret".getBytes(StandardCharsets.UTF_8));
                default -> value;
            });
        }
        assertEquals(Optional.ofNullable(refusal), AUTH.refusal(format, headers, BODY, pathToken));
    }

    @org.junit.jupiter.api.Test
    void harborNeedsBothConfiguredChecks() {
        assertEquals(Optional.empty(), AUTH.refusal(WebhookFormat.HARBOR,
                Map.of("authorization", "Bearer h-token", "x-harbor-signature", hmac("h-key")), BODY, null));
    }

    @org.junit.jupiter.api.Test
    void neverShowsTheSecret() {
        assertEquals("Secret[hidden]", Secret.ofNullable("s3cret").toString());
    }
}
