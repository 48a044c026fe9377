package dev.rekon.manifests.plan;

import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.core.NamespacePolicy;
import dev.rekon.core.ObjectRef;
import dev.rekon.manifests.LiveObject;
import dev.rekon.manifests.ManifestObjects;

/**
 * What keeps a set of manifest objects from being applied at all, checked before any write: a namespaced object
 * that names no namespace, objects outside the namespaces the owner may write, and objects that exist and belong
 * to someone else (conflicts; Namespaces that exist are shared, never conflicts).
 */
public final class ManifestChecks {

    /** A refusal: the reason (CamelCase) and what to fix. */
    public record Refusal(String reason, String message) {
    }

    private ManifestChecks() {
    }

    /**
     * @param subject who would apply them, for the message ("module widgets", "DeclaredState team-a/apps")
     * @param where   the setting that names the allowed namespaces, for the message
     */
    public static Optional<Refusal> scope(List<ObjectNode> desired, NamespacePolicy namespaces, String subject,
            String where) {
        List<ObjectRef> unknown = desired.stream().map(ManifestObjects::ref).filter(r -> !ManifestObjects.scopeKnown(r))
                .toList();
        if (!unknown.isEmpty()) {
            return Optional.of(new Refusal("NamespaceMissing", subject + " declares " + names(unknown)
                    + " without metadata.namespace; the manifest must name every namespaced object's namespace"));
        }
        return outside(desired, namespaces, subject, where);
    }

    /**
     * Objects outside the namespaces the owner may write, for an owner that has already decided each object's
     * scope (a cluster-scoped object names no namespace).
     */
    public static Optional<Refusal> outside(List<ObjectNode> desired, NamespacePolicy namespaces, String subject,
            String where) {
        List<ObjectRef> outside = desired.stream().map(ManifestObjects::ref).filter(r -> !namespaces.allows(r.namespace()))
                .toList();
        if (outside.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new Refusal(NamespacePolicy.REASON, subject + " would apply " + names(outside)
                + " where Rekon may not act (" + where + (outside.stream().anyMatch(r -> r.namespace() == null)
                        ? ", and rekon.cluster-scoped for cluster-scoped kinds" : "") + "); nothing was applied"));
    }

    /** The desired objects that exist, are not the owner's ({@code ours}) and are no Namespace: conflicts. */
    public static List<ObjectRef> taken(List<ObjectNode> desired, Function<ObjectRef, LiveObject> live,
            Predicate<LiveObject> ours) {
        return desired.stream().map(ManifestObjects::ref).filter(r -> {
            LiveObject l = live.apply(r);
            return l != null && !ours.test(l) && !"Namespace".equals(r.kind());
        }).toList();
    }

    public static String names(List<ObjectRef> refs) {
        return refs.stream().map(ObjectRef::toString).collect(Collectors.joining(", "));
    }
}
