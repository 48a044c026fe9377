package dev.rekon.cluster;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.runtime.StartupEvent;

/**
 * Sets the Kubernetes client up at start, beside the event path rather than on it: one {@code GET /version}
 * makes the client read its configuration, load its HTTP and JSON machinery and open the TLS connection that the
 * first event then reuses; then API discovery of the optional kinds, which the first event would otherwise ask for
 * one group version after another. It never delays start or readiness, and a failure only logs: the first event reads
 * the apiserver itself and answers 503 if it is still away. The client itself is made on the warm-up thread too:
 * start-up observers run on Quarkus' main thread before it opens the HTTP port, and making the client there (reading
 * the kubeconfig, setting up its HTTP and JSON machinery) kept the port closed for most of a second on JDK 17.
 */
@ApplicationScoped
public class ClientWarmUp {

    private static final Logger LOG = Logger.getLogger(ClientWarmUp.class);

    @Inject
    Instance<KubernetesClient> client;

    @Inject
    Instance<InstalledKinds> kinds;

    void onStart(@Observes StartupEvent started) {
        Thread warmUp = new Thread(() -> {
            try {
                LOG.debugf("apiserver %s", client.get().getKubernetesVersion().getGitVersion());
                InstalledKinds installed = kinds.get();
                installed.all().forEach(installed::installed);
            } catch (RuntimeException e) {
                LOG.infof("the apiserver did not answer at start (%s); the first event reads it again", e.getMessage());
            }
        }, "rekon-client-warm-up");
        warmUp.setDaemon(true);
        warmUp.start();
    }
}
