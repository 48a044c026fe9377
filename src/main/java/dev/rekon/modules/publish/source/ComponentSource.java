package dev.rekon.modules.publish.source;

import java.util.List;
import java.util.Optional;

/** Reads component versions from OCI registries, in OCM's layout, and lists which there are. */
public interface ComponentSource {

    /**
     * @param repository {@code <host>/<path>/component-descriptors/<component>}
     * @param version    the tag
     * @param namespace  where registry credentials are looked up
     */
    default ComponentRead read(String repository, String version, String namespace) {
        return read(repository, version, null, namespace);
    }

    /**
     * As {@link #read(String, String, String)}, the manifest read by {@code digest} when one is given: what a push
     * notification says was pushed under the tag, which the registry may not have linked to the tag yet.
     */
    ComponentRead read(String repository, String version, String digest, String namespace);

    /**
     * The manifest digest the tag points at now (one HEAD request, no blob read), or empty when the registry
     * cannot say: {@link #read} then tells why.
     */
    Optional<String> digest(String repository, String version, String namespace);

    /**
     * A list the registry gave ({@code refusal} null), or why it would not (permanent: the next pass gets the same
     * answer). An unreachable registry is a {@link dev.rekon.core.TransientFailureException}.
     */
    record Listed(List<String> items, String refusal) {

        public Listed {
            items = List.copyOf(items);
        }

        public static Listed refused(String why) {
            return new Listed(List.of(), why);
        }
    }

    /**
     * The component-descriptor repositories ({@code <host>/<path>/component-descriptors/<component>}) at or under
     * {@code prefix}: the registry's catalog, filtered; where there is no catalog, the prefix itself when it names
     * one component's repository.
     */
    Listed repositories(String prefix, String namespace);

    /** Every tag of one repository. */
    Listed tags(String repository, String namespace);
}
