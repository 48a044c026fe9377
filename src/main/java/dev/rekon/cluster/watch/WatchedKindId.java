package dev.rekon.cluster.watch;

import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;

/**
 * Names one kind Rekon watches, as one watch per scope serves every area that reads it.
 *
 * @param everywhere watch every namespace whatever {@code rekon.namespaces} says (inputs such as Kyma's release
 *                   objects, which live in the Kyma's namespace rather than where Rekon acts)
 */
public record WatchedKindId(String group, String version, String plural, String kind, boolean namespaced,
        boolean everywhere) {

    public static WatchedKindId namespaced(String group, String version, String plural, String kind) {
        return new WatchedKindId(group, version, plural, kind, true, false);
    }

    public static WatchedKindId clusterScoped(String group, String version, String plural, String kind) {
        return new WatchedKindId(group, version, plural, kind, false, false);
    }

    /** The same kind, watched in every namespace whatever the namespace policy. */
    public WatchedKindId inEveryNamespace() {
        return new WatchedKindId(group, version, plural, kind, namespaced, true);
    }

    /** One watch per key: the group and plural, whatever version or scope a reader names. */
    public String key() {
        return (group.isEmpty() ? "core" : group) + "/" + plural;
    }

    ResourceDefinitionContext context() {
        return new ResourceDefinitionContext.Builder().withGroup(group).withVersion(version).withPlural(plural)
                .withKind(kind).withNamespaced(namespaced).build();
    }
}
