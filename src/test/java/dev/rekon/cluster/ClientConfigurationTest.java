package dev.rekon.cluster;

import static org.junit.jupiter.api.Assertions.assertSame;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.rekon.testing.RekonTestResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;

/** The application's own client, configured from a client-certificate kubeconfig as the local stack's is. */
@QuarkusTest
@QuarkusTestResource(value = RekonTestResource.class, restrictToAnnotatedClass = false)
class ClientConfigurationTest {

    @Inject
    KubernetesClient client;

    @Test
    void aCertificateKubeconfigDoesNotReReadTheKubeconfigOnRequests() {
        assertSame(CertificateAuthRefresh.NO_TOKEN, client.getConfiguration().getOauthTokenProvider());
        client.namespaces().withName("default").get();
    }
}
