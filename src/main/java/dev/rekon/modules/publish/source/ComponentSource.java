package dev.rekon.modules.publish.source;

/** Reads component versions from OCI registries, in OCM's layout. */
public interface ComponentSource {

    /**
     * @param repository {@code <host>/<path>/component-descriptors/<component>}
     * @param version    the tag
     * @param namespace  where registry credentials are looked up
     */
    ComponentRead read(String repository, String version, String namespace);
}
