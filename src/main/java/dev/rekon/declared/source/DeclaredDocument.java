package dev.rekon.declared.source;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * One declared Kubernetes object and where it came from: {@code file} relative to the repository root and the
 * 1-based {@code line} its document (or its item of a List) starts on, so that every message can point at it.
 * {@code object} is the whole object, or, when {@code body} is set, its identity alone (apiVersion, kind, metadata)
 * and {@code body} reads the whole again: a large revision is not held in memory all at once.
 */
public record DeclaredDocument(String file, int line, ObjectNode object, DocumentBody body) {

    /** A document held whole. */
    public DeclaredDocument(String file, int line, ObjectNode object) {
        this(file, line, object, null);
    }

    /** Reads a document's whole object again, from where the revision was read. */
    @FunctionalInterface
    public interface DocumentBody {
        ObjectNode load();
    }

    /** {@code file:line}, the way editors and messages name a place. */
    public String where() {
        return file + ":" + line;
    }

    /** The whole object: {@link #object} itself, or read again. */
    public ObjectNode whole() {
        return body == null ? object : body.load();
    }
}
