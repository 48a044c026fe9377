package dev.rekon.modules.lifecycle.apply;

import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import dev.rekon.manifests.apply.Impersonation;
import io.fabric8.kubernetes.client.KubernetesClient;

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
    Impersonation impersonation;

    @ConfigProperty(name = "rekon.modules.apply-as")
    Optional<String> applyAs;

    private final java.util.concurrent.atomic.AtomicBoolean said = new java.util.concurrent.atomic.AtomicBoolean();

    /** The client module objects are written with. */
    public KubernetesClient writer() {
        if (serviceAccount().isEmpty()) {
            if (said.compareAndSet(false, true)) {
                LOG.warn("module objects are applied with Rekon's own identity; set rekon.modules.apply-as="
                        + "<namespace>/<name> to apply them as a ServiceAccount (impersonation)");
            }
            return impersonation.as(null, null);
        }
        String[] parts = parts();
        return impersonation.as(parts[0], parts[1]);
    }

    /** The ServiceAccount ({@code namespace/name}) module objects are applied as, or empty: Rekon's own identity. */
    public Optional<String> serviceAccount() {
        return applyAs.map(String::trim).filter(s -> !s.isEmpty());
    }

    /** What the status page says about it. */
    public String description() {
        return serviceAccount().map(s -> "as ServiceAccount " + s + " (" + Impersonation.username(parts()[0], parts()[1])
                + ")").orElse("with Rekon's own identity (set rekon.modules.apply-as to apply as a ServiceAccount)");
    }

    private String[] parts() {
        String[] parts = applyAs.get().trim().split("/", 2);
        if (parts.length != 2) {
            throw new IllegalStateException("rekon.modules.apply-as must be <namespace>/<name>, not " + applyAs.get());
        }
        return parts;
    }
}
