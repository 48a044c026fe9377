package dev.rekon.modules.lifecycle.apply;

import java.util.Optional;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;

/**
 * Who applies and deletes a module's objects: the ServiceAccount {@code rekon.modules.apply-as}
 * ({@code namespace/name}) by impersonation, so that Rekon's own role needs only {@code impersonate} on it plus
 * reads, as kapp and Flux apply as a named ServiceAccount; or, when none is configured, Rekon's own identity (as
 * Flux does without {@code serviceAccountName}), which is said once in the log and on the status page.
 */
@ApplicationScoped
public class KubeApplyIdentity {

    private static final Logger LOG = Logger.getLogger(KubeApplyIdentity.class);

    @Inject
    KubernetesClient client;

    @ConfigProperty(name = "rekon.modules.apply-as")
    Optional<String> applyAs;

    private final java.util.concurrent.atomic.AtomicBoolean said = new java.util.concurrent.atomic.AtomicBoolean();
    private volatile KubernetesClient impersonating;

    /** The client module objects are written with. */
    public KubernetesClient writer() {
        if (applyAs.isEmpty() || applyAs.get().isBlank()) {
            if (said.compareAndSet(false, true)) {
                LOG.warn("module objects are applied with Rekon's own identity; set rekon.modules.apply-as="
                        + "<namespace>/<name> to apply them as a ServiceAccount (impersonation)");
            }
            return client;
        }
        KubernetesClient c = impersonating;
        if (c == null) {
            synchronized (this) {
                if (impersonating == null) {
                    Config config = new ConfigBuilder(client.getConfiguration())
                            .withImpersonateUsername(username()).build();
                    impersonating = new KubernetesClientBuilder().withConfig(config).build();
                }
                c = impersonating;
            }
        }
        return c;
    }

    /** The ServiceAccount ({@code namespace/name}) module objects are applied as, or empty: Rekon's own identity. */
    public Optional<String> serviceAccount() {
        return applyAs.map(String::trim).filter(s -> !s.isEmpty());
    }

    /** What the status page says about it. */
    public String description() {
        return applyAs.filter(s -> !s.isBlank()).map(s -> "as ServiceAccount " + s + " (" + username() + ")")
                .orElse("with Rekon's own identity (set rekon.modules.apply-as to apply as a ServiceAccount)");
    }

    private String username() {
        String[] parts = applyAs.get().trim().split("/", 2);
        if (parts.length != 2) {
            throw new IllegalStateException("rekon.modules.apply-as must be <namespace>/<name>, not " + applyAs.get());
        }
        return "system:serviceaccount:" + parts[0] + ":" + parts[1];
    }

    @PreDestroy
    void close() {
        if (impersonating != null) {
            impersonating.close();
        }
    }
}
