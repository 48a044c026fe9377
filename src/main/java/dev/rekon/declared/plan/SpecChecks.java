package dev.rekon.declared.plan;

import java.util.List;
import java.util.Optional;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.core.NamespacePolicy;
import dev.rekon.core.ObjectRef;
import dev.rekon.manifests.ManifestObjects;
import dev.rekon.manifests.plan.ManifestChecks;

/**
 * Where a DeclaredState may write: every namespace of {@code spec.namespaces} must be one Rekon may act in, and
 * one other than its own only with {@code rekon.declared.cross-namespace} (else a tenant who may create
 * DeclaredStates in one namespace could write into another); every object must lie in one of them, and a
 * cluster-scoped one needs {@code rekon.cluster-scoped}.
 */
final class SpecChecks {

    private SpecChecks() {
    }

    static Optional<String> namespaces(DeclaredViews v) {
        List<String> namespaces = v.state().namespaces();
        if (namespaces.isEmpty()) {
            return Optional.of("spec.namespaces is empty; list the namespaces this DeclaredState may write");
        }
        List<String> notAllowed = namespaces.stream().filter(n -> !v.policy().allows(n)).toList();
        if (!notAllowed.isEmpty()) {
            return Optional.of("spec.namespaces lists " + notAllowed + ", outside rekon.namespaces; "
                    + v.policy().refusal(notAllowed.get(0)));
        }
        List<String> foreign = namespaces.stream().filter(n -> !n.equals(v.key().namespace())).toList();
        if (!foreign.isEmpty() && !v.crossNamespace()) {
            return Optional.of("spec.namespaces lists " + foreign + " besides the DeclaredState's own namespace '"
                    + v.key().namespace() + "'; a DeclaredState writes only its own namespace unless"
                    + " rekon.declared.cross-namespace=true");
        }
        return Optional.empty();
    }

    static Optional<ManifestChecks.Refusal> scope(DeclaredViews v, List<ObjectNode> objects) {
        // DesiredObjects decided each object's scope (a namespaced one without a namespace went to the first).
        Optional<ManifestChecks.Refusal> rekon = ManifestChecks.outside(objects, v.policy(), "the revision",
                "rekon.namespaces");
        if (rekon.isPresent()) {
            return rekon;
        }
        NamespacePolicy spec = NamespacePolicy.parse(String.join(",", v.state().namespaces()));
        List<ObjectRef> outside = objects.stream().map(ManifestObjects::ref)
                .filter(r -> r.namespace() != null && !spec.allows(r.namespace())).toList();
        return outside.isEmpty() ? Optional.empty() : Optional.of(new ManifestChecks.Refusal(NamespacePolicy.REASON,
                "the revision would apply " + ManifestChecks.names(outside) + " outside spec.namespaces "
                        + v.state().namespaces() + "; nothing was applied"));
    }
}
