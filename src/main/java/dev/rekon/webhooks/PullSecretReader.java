package dev.rekon.webhooks;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import dev.rekon.core.RefusedException;
import dev.rekon.registry.Credential;
import dev.rekon.registry.DockerConfig;

/**
 * Finds a registry credential among subscribers' pull secrets, in their order: the Secrets each names, then its
 * ServiceAccount's {@code imagePullSecrets}. Stops at the first Secret with an entry for the registry, so a push
 * reads no more Secrets than it needs. A missing ServiceAccount or Secret, or one Rekon may not read (pull secrets
 * are granted by name), is skipped, said once in the log: the read is then anonymous, never a refused push.
 */
@ApplicationScoped
public class PullSecretReader {

    private static final Logger LOG = Logger.getLogger(PullSecretReader.class);

    @Inject
    PullSecretGateway gateway;

    private final Set<String> refused = ConcurrentHashMap.newKeySet();

    public Optional<Credential> forRegistry(String registry, List<Subscription.PullSecrets> subscribers) {
        for (Subscription.PullSecrets s : subscribers) {
            for (String name : secretNames(s)) {
                Map<String, String> data = readable(secret(s.namespace(), name),
                        () -> gateway.secretData(s.namespace(), name)).orElse(null);
                Optional<Credential> found = DockerConfig.ofSecretData(data).forRegistry(registry);
                if (found.isPresent()) {
                    return found;
                }
            }
        }
        return Optional.empty();
    }

    private List<String> secretNames(Subscription.PullSecrets s) {
        List<String> names = new ArrayList<>(s.secretNames());
        if (s.serviceAccount() != null) {
            readable(serviceAccount(s.namespace(), s.serviceAccount()),
                    () -> gateway.imagePullSecrets(s.namespace(), s.serviceAccount()))
                    .ifPresent(listed -> listed.stream().filter(n -> !names.contains(n)).forEach(names::add));
        }
        return names;
    }

    static String secret(String namespace, String name) {
        return "pull secret " + namespace + "/" + name;
    }

    static String serviceAccount(String namespace, String name) {
        return "service account " + namespace + "/" + name;
    }

    /** The object, or empty when it is missing or Rekon may not read it. */
    private <T> Optional<T> readable(String what, Supplier<Optional<T>> read) {
        try {
            return read.get();
        } catch (RefusedException e) {
            // A credential Rekon may not read is one it does without; the registry then says whether it was needed.
            if (refused.add(what)) {
                LOG.warnf("cannot read %s for a registry credential (%s); reading the digest without it. Grant Rekon"
                        + " 'get' on it to use it", what, e.getMessage());
            }
            return Optional.empty();
        }
    }
}
