package dev.rekon.modules.publish.source;

import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.modules.ocm.ComponentDescriptor;
import dev.rekon.modules.release.SignatureCheck;

/**
 * One OCM component version as read from its OCI repository, every blob checked against its digest: the
 * descriptor (from the config's {@code componentDescriptorLayer}), the objects of its {@code raw-manifest}, and
 * the optional {@code default-cr} and {@code moduletemplate} resources, with how its signature checked.
 *
 * @param repository     {@code <host>/<path>/component-descriptors/<component>}
 * @param digest         the component version's OCI manifest digest: what a version is, for "rewritten"
 * @param descriptor     the descriptor as stored (signatures included), as a ModuleTemplate carries it
 * @param manifestCovered whether the descriptor records the raw-manifest's SHA-256 digest, so a signature covers it
 * @param defaultCr      the default custom resource, or null
 * @param moduleTemplate the ModuleTemplate the component carries, or null
 */
public record ComponentVersion(String repository, String version, String digest, JsonNode descriptor,
        ComponentDescriptor component, List<ObjectNode> objects, boolean manifestCovered, ObjectNode defaultCr,
        ObjectNode moduleTemplate, SignatureCheck signature) {

    public ComponentVersion {
        objects = List.copyOf(objects);
    }

    /** {@code <repository>:<version>@<digest>}, for messages. */
    public String describe() {
        return repository + ":" + version + "@" + digest;
    }
}
