package dev.rekon.cluster.watch;

import java.util.function.UnaryOperator;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.TextNode;

/**
 * Decides that a watched object's short texts are held once however many objects carry them: the trees the watches
 * read make each string value canonical ({@link String#intern}). Thousands of watched objects name the same few
 * namespaces, apiVersions, images, labels and condition reasons, and the views keep those strings; as read, each
 * object held its own copy of each. Longer texts (messages, annotations of JSON) are left as read: they rarely
 * repeat, and hashing them would cost more than it saves.
 * <p>
 * Every watch event reads all of an object's texts again, most of them seen before, and {@code intern} asks the
 * JVM's string table each time: a call into the VM, a quarter of the watch edge's CPU per event in a profile of
 * the warm rollout bench. So a text is looked up first in a small table of the canonical strings last returned,
 * by its hash: found there, it is answered without the JVM; else it is interned and takes the slot. A slot only
 * saves the look-up: what comes out is always the interned string, so two equal texts are one string whether or
 * not they met in the table.
 */
final class WatchedText extends JsonNodeFactory {

    /** The longest text made canonical: an image reference with its digest fits. */
    static final int LONGEST = 256;

    /** Slots of the table in front of {@code intern} (a power of two): about 16 KiB, a few hundred KiB of strings. */
    static final int SLOTS = 4096;

    private final String[] recent;
    private final UnaryOperator<String> pool;

    WatchedText() {
        this(SLOTS, String::intern);
    }

    /**
     * @param slots how many canonical strings are kept at hand (a power of two)
     * @param pool  what makes a text canonical when it is not at hand
     */
    WatchedText(int slots, UnaryOperator<String> pool) {
        super(false);
        if (Integer.bitCount(slots) != 1) {
            throw new IllegalArgumentException("slots must be a power of two, not " + slots);
        }
        this.recent = new String[slots];
        this.pool = pool;
    }

    @Override
    public TextNode textNode(String text) {
        return super.textNode(text != null && text.length() <= LONGEST ? canonical(text) : text);
    }

    /**
     * Readers on several watch threads share the table without a lock: a String is immutable and safely published,
     * so a slot read is either null, another text, or a canonical string equal to this one; a lost write only
     * means one more {@code intern} later.
     */
    private String canonical(String text) {
        int h = text.hashCode();
        int slot = (h ^ (h >>> 16)) & (recent.length - 1);
        String held = recent[slot];
        if (held != null && held.equals(text)) {
            return held;
        }
        String interned = pool.apply(text);
        recent[slot] = interned;
        return interned;
    }
}
