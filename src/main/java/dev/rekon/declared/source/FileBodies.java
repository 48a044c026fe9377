package dev.rekon.declared.source;

import java.util.List;
import java.util.function.Supplier;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The documents of a revision that are not held whole: each keeps its identity (apiVersion, kind, metadata) and
 * reads its object again from its file's content when used. CustomResourceDefinitions stay whole, since the
 * objects after them are planned from them. The last file read again is kept, so that the documents of one file
 * used in turn parse it once.
 */
final class FileBodies {

    private final SourceLimits limits;
    private String lastPath;
    private List<DeclaredDocument> lastDocuments;

    FileBodies(SourceLimits limits) {
        this.limits = limits;
    }

    DeclaredDocument identityOnly(DeclaredDocument d, String path, int index, Supplier<byte[]> reload) {
        if ("CustomResourceDefinition".equals(d.object().path("kind").asText())) {
            return d;
        }
        ObjectNode identity = d.object().objectNode();
        for (String field : List.of("apiVersion", "kind", "metadata")) {
            if (d.object().has(field)) {
                identity.set(field, d.object().get(field));
            }
        }
        return new DeclaredDocument(d.file(), d.line(), identity, () -> load(path, index, reload));
    }

    private synchronized ObjectNode load(String path, int index, Supplier<byte[]> reload) {
        if (!path.equals(lastPath)) {
            RevisionReader reader = new RevisionReader(limits);
            reader.read(path, reload.get());
            lastDocuments = reader.documents();
            lastPath = path;
        }
        return lastDocuments.get(index).object().deepCopy();
    }
}
