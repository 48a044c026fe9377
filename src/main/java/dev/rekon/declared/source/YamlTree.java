package dev.rekon.declared.source;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Turns the composed YAML nodes of one file into Jackson trees, the way Kubernetes' YAML-to-JSON conversion does
 * (YAML 1.1 scalars, merge keys), and decides when aliases expand too far: SnakeYAML bounds how many aliases a
 * file has, not how many nodes they expand to, so every node converted a second time is counted here.
 */
final class YamlTree {

    /** Nodes that aliases may add to one file by repetition. */
    static final int ALIAS_EXPANSION_LIMIT = 10_000;
    private static final int DEPTH_LIMIT = 500;
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final String file;
    private final Scalars scalars;
    private final Set<Node> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    private final Set<Node> open = Collections.newSetFromMap(new IdentityHashMap<>());
    private int repeats;

    YamlTree(String file, Scalars scalars) {
        this.file = file;
        this.scalars = scalars;
    }

    JsonNode convert(Node node) {
        return convert(node, 0);
    }

    static int line(Node node) {
        return node.getStartMark() == null ? 0 : node.getStartMark().getLine() + 1;
    }

    private JsonNode convert(Node node, int depth) {
        if (!seen.add(node) && ++repeats > ALIAS_EXPANSION_LIMIT) {
            throw refuse(RevisionRefusedException.ALIAS_LIMIT, node, "YAML aliases expand to more than "
                    + ALIAS_EXPANSION_LIMIT + " repeated nodes; write the repeated parts out or use fewer aliases");
        }
        if (depth > DEPTH_LIMIT) {
            throw refuse(RevisionRefusedException.PARSE_ERROR, node, "nested more than " + DEPTH_LIMIT + " levels deep");
        }
        if (node instanceof ScalarNode scalar) {
            return scalar(scalar);
        }
        if (!open.add(node)) {
            throw refuse(RevisionRefusedException.ALIAS_LIMIT, node,
                    "a YAML alias refers to a node that contains it; such a recursive value has no JSON form");
        }
        try {
            return node instanceof SequenceNode sequence ? sequence(sequence, depth) : mapping((MappingNode) node, depth);
        } finally {
            open.remove(node);
        }
    }

    private ArrayNode sequence(SequenceNode sequence, int depth) {
        ArrayNode out = NODES.arrayNode();
        for (Node item : sequence.getValue()) {
            out.add(convert(item, depth + 1));
        }
        return out;
    }

    private ObjectNode mapping(MappingNode mapping, int depth) {
        ObjectNode out = NODES.objectNode();
        List<Node> merges = new ArrayList<>();
        for (NodeTuple tuple : mapping.getValue()) {
            Node key = tuple.getKeyNode();
            if (Tag.MERGE.equals(key.getTag())) {
                merges.add(tuple.getValueNode());
                continue;
            }
            if (!(key instanceof ScalarNode scalarKey)) {
                throw refuse(RevisionRefusedException.PARSE_ERROR, key, "a mapping key must be a plain value");
            }
            String name = scalarKey.getValue();
            if (out.has(name)) {
                throw refuse(RevisionRefusedException.PARSE_ERROR, key, "duplicate key '" + name + "'");
            }
            out.set(name, convert(tuple.getValueNode(), depth + 1));
        }
        // Merge keys (<<) never override the mapping's own keys; earlier merged mappings win over later ones.
        for (Node merge : merges) {
            List<Node> sources = merge instanceof SequenceNode s ? s.getValue() : List.of(merge);
            for (Node source : sources) {
                if (!(source instanceof MappingNode)) {
                    throw refuse(RevisionRefusedException.PARSE_ERROR, source, "a merge key (<<) must name mappings");
                }
                convert(source, depth + 1).properties().forEach(e -> {
                    if (!out.has(e.getKey())) {
                        out.set(e.getKey(), e.getValue());
                    }
                });
            }
        }
        return out;
    }

    private JsonNode scalar(ScalarNode scalar) {
        Tag tag = scalar.getTag();
        if (Tag.NULL.equals(tag)) {
            return NODES.nullNode();
        }
        if (!Tag.BOOL.equals(tag) && !Tag.INT.equals(tag) && !Tag.FLOAT.equals(tag)) {
            return NODES.textNode(scalar.getValue());
        }
        Object value;
        try {
            value = scalars.value(scalar);
        } catch (RuntimeException e) {
            throw refuse(RevisionRefusedException.PARSE_ERROR, scalar, "'" + scalar.getValue() + "' is not a valid "
                    + tag.getValue().replace(Tag.PREFIX, ""));
        }
        if (value instanceof Boolean b) {
            return NODES.booleanNode(b);
        } else if (value instanceof Integer i) {
            return NODES.numberNode(i);
        } else if (value instanceof Long l) {
            return NODES.numberNode(l);
        } else if (value instanceof BigInteger big) {
            return NODES.numberNode(big);
        } else if (value instanceof Double d && Double.isFinite(d)) {
            return NODES.numberNode(d);
        }
        // .inf and .nan have no JSON number; Kubernetes would not accept them as numbers either.
        return NODES.textNode(scalar.getValue());
    }

    private RevisionRefusedException refuse(String reason, Node node, String message) {
        return new RevisionRefusedException(reason, file, line(node), message, null);
    }

    /** SnakeYAML's own YAML 1.1 resolution of booleans and numbers (0x.., 1_000, yes/no); one per reader. */
    static final class Scalars extends SafeConstructor {

        Scalars(LoaderOptions options) {
            super(options);
        }

        Object value(ScalarNode node) {
            return yamlConstructors.get(node.getTag()).construct(node);
        }
    }
}
