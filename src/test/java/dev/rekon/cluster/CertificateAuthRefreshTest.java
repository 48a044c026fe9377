package dev.rekon.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.function.UnaryOperator;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.fabric8.kubernetes.api.model.AuthProviderConfig;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.OAuthTokenProvider;

/** Which client configurations skip fabric8's per-request kubeconfig refresh. */
class CertificateAuthRefreshTest {

    static final OAuthTokenProvider USERS = () -> "from the user's provider";

    static Stream<Arguments> configs() {
        return Stream.of(
                Arguments.of("client certificate data alone", (UnaryOperator<ConfigBuilder>) b -> b.withClientCertData("Y2VydA=="), true),
                Arguments.of("client certificate file alone", (UnaryOperator<ConfigBuilder>) b -> b.withClientCertFile("/certs/client.crt"), true),
                Arguments.of("certificate and a token", (UnaryOperator<ConfigBuilder>) b -> b.withClientCertData("Y2VydA==").withOauthToken("t"), false),
                Arguments.of("a token alone (in-cluster ServiceAccount)", (UnaryOperator<ConfigBuilder>) b -> b.withOauthToken("t"), false),
                Arguments.of("certificate and an auto-configured token", (UnaryOperator<ConfigBuilder>) b -> b.withClientCertData("Y2VydA==").withAutoOAuthToken("t"), false),
                Arguments.of("certificate and basic auth", (UnaryOperator<ConfigBuilder>) b -> b.withClientCertData("Y2VydA==").withUsername("u").withPassword("p"), false),
                Arguments.of("certificate and an auth provider", (UnaryOperator<ConfigBuilder>) b -> b.withClientCertData("Y2VydA==")
                        .withAuthProvider(new AuthProviderConfig(java.util.Map.of(), "oidc")), false),
                Arguments.of("nothing at all", (UnaryOperator<ConfigBuilder>) b -> b, false));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("configs")
    void onlyCertificateAuthenticationSkipsTheRefresh(String what, UnaryOperator<ConfigBuilder> config, boolean skips) {
        Config c = config.apply(new ConfigBuilder(Config.empty())).build();
        new CertificateAuthRefresh().customize(c);
        if (skips) {
            assertSame(CertificateAuthRefresh.NO_TOKEN, c.getOauthTokenProvider(), what);
            assertNull(c.getOauthTokenProvider().getToken(), "requests carry no token: the certificate authenticates");
        } else {
            assertNull(c.getOauthTokenProvider(), what);
        }
    }

    @org.junit.jupiter.api.Test
    void aProviderTheUserConfiguredIsKept() {
        Config c = new ConfigBuilder(Config.empty()).withClientCertData("Y2VydA==").build();
        c.setOauthTokenProvider(USERS);
        new CertificateAuthRefresh().customize(c);
        assertEquals("from the user's provider", c.getOauthTokenProvider().getToken());
    }
}
