package dev.rekon.manifests;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The whole object a planned manifest object stands for. A large declared state is planned from each object's
 * identity alone (apiVersion, kind, metadata), so that its content is not held all at once; the content is read
 * again where it is compared or written, one object at a time. Objects held whole stand for themselves.
 */
@FunctionalInterface
public interface ManifestBodies {

    /** Every object is whole: the module lifecycle's manifests, and small declared states. */
    ManifestBodies WHOLE = planned -> planned;

    /** The whole object, with the metadata of {@code planned} (its labels, its namespace). */
    ObjectNode whole(ObjectNode planned);
}
