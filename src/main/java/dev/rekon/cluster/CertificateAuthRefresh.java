package dev.rekon.cluster;

import jakarta.inject.Singleton;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.OAuthTokenProvider;
import io.fabric8.kubernetes.client.utils.Utils;
import io.quarkus.kubernetes.client.KubernetesConfigCustomizer;

/**
 * Decides whether the Kubernetes client may skip its token refresh: only when it authenticates by client
 * certificate alone. fabric8's refresh re-reads and re-parses the kubeconfig to look for a newer token, and
 * marks the refresh as done only when it finds one; with certificate authentication there is none, so every
 * request after the first minute paid a YAML parse of the kubeconfig. Any token, basic, exec or auth-provider
 * configuration (an in-cluster ServiceAccount's rotating token included) keeps fabric8's refresh as it is.
 */
@Singleton
public class CertificateAuthRefresh implements KubernetesConfigCustomizer {

    /** No token, ever: requests go out with the client certificate alone, and nothing is re-read. */
    static final OAuthTokenProvider NO_TOKEN = () -> null;

    @Override
    public void customize(Config config) {
        if (certificateOnly(config)) {
            config.setOauthTokenProvider(NO_TOKEN);
        }
    }

    static boolean certificateOnly(Config config) {
        boolean certificate = Utils.isNotNullOrEmpty(config.getClientCertData())
                || Utils.isNotNullOrEmpty(config.getClientCertFile());
        return certificate && config.getOauthTokenProvider() == null
                && Utils.isNullOrEmpty(config.getOauthToken()) && Utils.isNullOrEmpty(config.getAutoOAuthToken())
                && Utils.isNullOrEmpty(config.getUsername()) && config.getAuthProvider() == null
                && Utils.isNullOrEmpty(config.getPassword());
    }
}
