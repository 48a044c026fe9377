package dev.rekon.declared.source;

import java.io.ByteArrayInputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SortedMap;
import java.util.function.Supplier;

import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;
import org.yaml.snakeyaml.reader.UnicodeReader;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import static dev.rekon.declared.source.RevisionRefusedException.*;

/**
 * Decides which files of a revision are declared state and turns them into objects, under {@link SourceLimits}.
 * Every {@code *.yaml}, {@code *.yml} and {@code *.json} file is read (files and folders whose name starts with a
 * dot, like {@code .github/}, are not); YAML files may hold several documents; empty documents are skipped; a
 * {@code *List} kind with {@code items} stands for its items; a kustomization is refused, since Rekon does not run
 * kustomize. One instance reads one revision: feed it files in path order through {@link #accept} and
 * {@link #read}, then take {@link #documents()}.
 */
public final class RevisionReader {

    static final int MAX_ALIASES = 50;
    static final int NESTING_LIMIT = 100;
    private static final ObjectMapper JSON = new ObjectMapper(JsonFactory.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(NESTING_LIMIT).build())
            .build()).enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private final SourceLimits limits;
    private final List<DeclaredDocument> documents = new ArrayList<>();
    private final FileBudget files;
    private int objects;

    private Yaml yaml;
    private YamlTree.Scalars scalars;
    private long heldBytes = Long.MAX_VALUE;
    private long held;
    private FileBodies bodies;

    public RevisionReader(SourceLimits limits) {
        this.limits = limits;
        this.files = new FileBudget(limits);
    }

    /**
     * Holds the documents of files whole until {@code bytes} of files are held; the documents of later files keep
     * their identity alone and are read again from their file when used ({@link #read(String, byte[], Supplier)}).
     */
    public RevisionReader holding(long bytes) {
        this.heldBytes = bytes;
        return this;
    }

    /** Reads a whole revision given as file contents by path: the pure form, for tests and callers without git. */
    public static List<DeclaredDocument> readAll(SourceLimits limits, SortedMap<String, byte[]> contents) {
        RevisionReader reader = new RevisionReader(limits);
        for (Map.Entry<String, byte[]> file : contents.entrySet()) {
            if (reader.accept(file.getKey(), file.getValue().length)) {
                reader.read(file.getKey(), file.getValue());
            }
        }
        return reader.documents();
    }

    /**
     * Whether the file at {@code path} (relative to the repository root) of {@code size} bytes is to be read; called
     * before its content is loaded, so a file beyond the limits is refused unread.
     */
    public boolean accept(String path, long size) {
        return files.accept(path, size);
    }

    /** Reads the documents of an accepted file. */
    public void read(String path, byte[] content) {
        if (path.toLowerCase(Locale.ROOT).endsWith(".json")) {
            readJson(path, content);
        } else {
            readYaml(path, content);
        }
    }

    /**
     * Reads the documents of an accepted file; beyond the bytes this reader may hold, they keep their identity and
     * {@code reload} gives the file's content again when one is used.
     */
    public void read(String path, byte[] content, Supplier<byte[]> reload) {
        int from = documents.size();
        read(path, content);
        if (held + content.length <= heldBytes) {
            held += content.length;
            return;
        }
        if (bodies == null) {
            bodies = new FileBodies(limits);
        }
        for (int i = from; i < documents.size(); i++) {
            documents.set(i, bodies.identityOnly(documents.get(i), path, i - from, reload));
        }
    }

    public List<DeclaredDocument> documents() {
        return List.copyOf(documents);
    }

    private void readYaml(String file, byte[] content) {
        if (yaml == null) {
            // Made once per revision, not per file: making a Yaml and its constructors was most of a small file's read.
            LoaderOptions options = new LoaderOptions();
            options.setMaxAliasesForCollections(MAX_ALIASES);
            options.setAllowDuplicateKeys(false);
            options.setAllowRecursiveKeys(false);
            options.setNestingDepthLimit(NESTING_LIMIT);
            options.setCodePointLimit((int) Math.min(Integer.MAX_VALUE, limits.maxFileBytes()));
            yaml = new Yaml(options);
            scalars = new YamlTree.Scalars(options);
        }
        YamlTree tree = new YamlTree(file, scalars);
        try {
            for (Node document : yaml.composeAll(new UnicodeReader(new ByteArrayInputStream(content)))) {
                if (document != null && !Tag.NULL.equals(document.getTag())) {
                    addYaml(file, document, tree, false);
                }
            }
        } catch (MarkedYAMLException e) {
            int line = e.getProblemMark() == null ? 0 : e.getProblemMark().getLine() + 1;
            String context = e.getContext() == null ? "" : e.getContext() + ": ";
            throw new RevisionRefusedException(PARSE_ERROR, file, line, "not valid YAML: " + context + e.getProblem(), e);
        } catch (YAMLException e) {
            String message = String.valueOf(e.getMessage());
            String reason = message.contains("aliases") ? ALIAS_LIMIT
                    : message.contains("exceeds the limit") ? TOO_LARGE : PARSE_ERROR;
            throw new RevisionRefusedException(reason, file, 0, "not accepted as YAML: " + message, e);
        }
    }

    /** {@code counted}: the node is an item of a List whose items were counted already. */
    private void addYaml(String file, Node node, YamlTree tree, boolean counted) {
        int line = YamlTree.line(node);
        if (!(node instanceof MappingNode mapping)) {
            throw notAnObject(file, line);
        }
        if (value(mapping, "kind") instanceof ScalarNode kind && kind.getValue().endsWith("List")
                && value(mapping, "items") instanceof SequenceNode items) {
            // Refused before any item is converted, so a huge List costs no more than its parse.
            countObjects(file, line, items.getValue().size() - (counted ? 1 : 0));
            for (Node item : items.getValue()) {
                addYaml(file, item, tree, true);
            }
            return;
        }
        if (!counted) {
            countObjects(file, line, 1);
        }
        add(file, line, tree.convert(mapping));
    }

    private void readJson(String file, byte[] content) {
        JsonNode root;
        try {
            root = JSON.readTree(content);
        } catch (JsonProcessingException e) {
            int line = e.getLocation() == null ? 0 : e.getLocation().getLineNr();
            throw new RevisionRefusedException(PARSE_ERROR, file, line, "not valid JSON: " + e.getOriginalMessage(), e);
        } catch (java.io.IOException e) {
            throw new RevisionRefusedException(PARSE_ERROR, file, 0, "not valid JSON: " + e.getMessage(), e);
        }
        if (root != null && !root.isMissingNode() && !root.isNull()) {
            addJson(file, root, false);
        }
    }

    private void addJson(String file, JsonNode node, boolean counted) {
        if (!(node instanceof ObjectNode object)) {
            throw notAnObject(file, 1);
        }
        if (object.path("kind").asText("").endsWith("List") && object.get("items") != null
                && object.get("items").isArray()) {
            countObjects(file, 1, object.get("items").size() - (counted ? 1 : 0));
            object.get("items").forEach(item -> addJson(file, item, true));
            return;
        }
        if (!counted) {
            countObjects(file, 1, 1);
        }
        add(file, 1, object);
    }

    private void add(String file, int line, JsonNode json) {
        ObjectNode object = (ObjectNode) json;
        for (String field : List.of("apiVersion", "kind")) {
            if (!object.path(field).isTextual() || object.path(field).asText().isBlank()) {
                throw new RevisionRefusedException(PARSE_ERROR, file, line, "a Kubernetes object needs apiVersion, "
                        + "kind and metadata.name; this document has no " + field, null);
            }
        }
        JsonNode name = object.path("metadata").path("name");
        if (!name.isTextual() || name.asText().isBlank()) {
            throw new RevisionRefusedException(PARSE_ERROR, file, line, "a Kubernetes object needs apiVersion, kind "
                    + "and metadata.name; this " + object.get("kind").asText() + " has no metadata.name", null);
        }
        documents.add(new DeclaredDocument(file, line, object));
    }

    private void countObjects(String file, int line, int more) {
        objects += more;
        if (objects > limits.maxObjects()) {
            throw new RevisionRefusedException(TOO_MANY_OBJECTS, file, line, "the revision holds more than "
                    + limits.maxObjects() + " objects (rekon.declared.max-objects); point spec.git.path at a "
                    + "smaller folder or split the declared state", null);
        }
    }

    private static RevisionRefusedException notAnObject(String file, int line) {
        return new RevisionRefusedException(NOT_AN_OBJECT, file, line, "the document is not a mapping; each document "
                + "must be one Kubernetes object (or a List of them)", null);
    }

    private static Node value(MappingNode mapping, String key) {
        for (NodeTuple tuple : mapping.getValue()) {
            if (tuple.getKeyNode() instanceof ScalarNode k && k.getValue().equals(key)) {
                return tuple.getValueNode();
            }
        }
        return null;
    }
}
