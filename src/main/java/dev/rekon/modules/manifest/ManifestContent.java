package dev.rekon.modules.manifest;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;

/**
 * Reads a manifest blob into Kubernetes objects: a multi-document YAML (or JSON) stream, or a tar, optionally
 * gzipped, of {@code .yaml}/{@code .yml}/{@code .json} files taken in path order. Empty documents are skipped;
 * every other document must be an object with {@code apiVersion}, {@code kind} and {@code metadata.name}.
 * Pure; a blob that is none of these is {@link Invalid}, naming the document.
 */
final class ManifestContent {

    /** Largest manifest accepted, unpacked: far beyond real modules, small enough to hold in memory. */
    static final long MAX_BYTES = 64L * 1024 * 1024;

    private static final YAMLMapper YAML = new YAMLMapper();

    /** The blob is not a manifest; the message names the document and what is wrong. */
    static final class Invalid extends Exception {
        Invalid(String message) {
            super(message);
        }
    }

    private ManifestContent() {
    }

    static List<ObjectNode> objects(byte[] blob) throws Invalid {
        byte[] data = blob;
        try {
            if (TarArchive.isGzip(data)) {
                data = TarArchive.gunzip(data, MAX_BYTES);
            }
            if (!TarArchive.isTar(data)) {
                return documents(data, "");
            }
            List<ObjectNode> all = new ArrayList<>();
            for (Map.Entry<String, byte[]> f : TarArchive.files(data).entrySet()) {
                if (f.getKey().matches(".*\\.(ya?ml|json)$")) {
                    all.addAll(documents(f.getValue(), "file " + f.getKey() + ", "));
                }
            }
            return all;
        } catch (IOException e) {
            throw new Invalid("is not a readable YAML stream or tar archive: " + e.getMessage());
        }
    }

    private static List<ObjectNode> documents(byte[] yaml, String file) throws Invalid {
        List<ObjectNode> objects = new ArrayList<>();
        int index = 0;
        try (MappingIterator<JsonNode> docs = YAML.readerFor(JsonNode.class).readValues(yaml)) {
            while (docs.hasNextValue()) {
                JsonNode doc = docs.nextValue();
                index++;
                if (doc != null && !doc.isNull() && !doc.isMissingNode()) {
                    objects.add(object(doc, file + "document " + index));
                }
            }
        } catch (IOException | RuntimeException e) {
            throw new Invalid("has invalid YAML in " + file + "document " + (index + 1) + ": " + firstLine(e));
        }
        return objects;
    }

    private static ObjectNode object(JsonNode doc, String where) throws Invalid {
        if (!(doc instanceof ObjectNode o)) {
            throw new Invalid("has " + where + " that is not a Kubernetes object but a " + doc.getNodeType());
        }
        List<String> missing = new ArrayList<>();
        for (String field : List.of("apiVersion", "kind")) {
            if (!o.path(field).isTextual() || o.path(field).asText().isBlank()) {
                missing.add(field);
            }
        }
        if (!o.path("metadata").path("name").isTextual() || o.path("metadata").path("name").asText().isBlank()) {
            missing.add("metadata.name");
        }
        if (!missing.isEmpty()) {
            throw new Invalid("has " + where + " (kind " + o.path("kind").asText("?") + ") without " + missing
                    + "; every object of a manifest needs apiVersion, kind and metadata.name");
        }
        return o;
    }

    private static String firstLine(Exception e) {
        String m = String.valueOf(e.getMessage());
        int nl = m.indexOf('\n');
        return nl < 0 ? m : m.substring(0, nl);
    }
}
