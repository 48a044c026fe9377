package dev.rekon.pipeline;

import java.util.List;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.rekon.core.NamespacePolicy;
import dev.rekon.core.ObjectRef;
import dev.rekon.core.RekonConfig;
import dev.rekon.core.Reply;

/**
 * The one check of {@code rekon.namespaces} before any API call: an event about an object outside it is
 * answered {@code rejected} / {@value NamespacePolicy#REASON}, saying how to allow it.
 */
@ApplicationScoped
public class NamespaceGuard {

    @Inject
    RekonConfig config;

    private NamespacePolicy fixed;

    /** A guard over a fixed allow-list, for callers outside CDI such as service tests. */
    public static NamespaceGuard of(NamespacePolicy policy) {
        NamespaceGuard guard = new NamespaceGuard();
        guard.fixed = policy;
        return guard;
    }

    private NamespacePolicy policy() {
        return fixed != null ? fixed : config.namespacePolicy();
    }

    /** The refusal for an object in {@code namespace} (null: cluster-scoped), or empty when Rekon may act there. */
    public Optional<Reply> refusal(String namespace, ObjectRef subject) {
        NamespacePolicy policy = policy();
        if (policy.allows(namespace)) {
            return Optional.empty();
        }
        return Optional.of(Reply.rejected(NamespacePolicy.REASON, policy.refusal(namespace),
                subject == null ? List.of() : List.of(subject)));
    }

    /** Runs {@code work} only where Rekon may act. */
    public Reply guarded(String namespace, ObjectRef subject, java.util.function.Supplier<Reply> work) {
        return refusal(namespace, subject).orElseGet(work);
    }

    public boolean allows(String namespace) {
        return policy().allows(namespace);
    }
}
