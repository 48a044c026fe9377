package dev.rekon.cluster.watch;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.TextNode;

/**
 * Decides that a watched object's short texts are held once however many objects carry them: the trees the watches
 * read make each string value canonical ({@link String#intern}). Thousands of watched objects name the same few
 * namespaces, apiVersions, images, labels and condition reasons, and the views keep those strings; as read, each
 * object held its own copy of each. Longer texts (messages, annotations of JSON) are left as read: they rarely
 * repeat, and hashing them would cost more than it saves.
 */
final class WatchedText extends JsonNodeFactory {

    /** The longest text made canonical: an image reference with its digest fits. */
    static final int LONGEST = 256;

    WatchedText() {
        super(false);
    }

    @Override
    public TextNode textNode(String text) {
        return super.textNode(text != null && text.length() <= LONGEST ? text.intern() : text);
    }
}
