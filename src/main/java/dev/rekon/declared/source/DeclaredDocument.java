package dev.rekon.declared.source;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * One declared Kubernetes object and where it came from: {@code file} relative to the repository root and the
 * 1-based {@code line} its document (or its item of a List) starts on, so that every message can point at it.
 */
public record DeclaredDocument(String file, int line, ObjectNode object) {

    /** {@code file:line}, the way editors and messages name a place. */
    public String where() {
        return file + ":" + line;
    }
}
