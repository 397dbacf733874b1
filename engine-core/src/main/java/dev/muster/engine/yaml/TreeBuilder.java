package dev.muster.engine.yaml;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

/**
 * Turns one composed SnakeYAML document into a Jackson tree, expanding aliases. Aliases are capped as
 * go-yaml caps them for kubectl ({@code allowedAliasRatio} in its decoder): once more than 100 nodes
 * came from aliases and more than 1,000 were built, the share of alias-built nodes may not exceed 99%
 * up to 400,000 nodes, falling to 10% at 4,000,000; past that the document is refused as an alias bomb.
 * Not thread-safe: one builder per document.
 */
final class TreeBuilder {
    /** The deepest nesting read, as Jackson's default and far beyond any manifest. */
    static final int MAX_DEPTH = 1000;

    // YAML 1.2's octal form, which go-yaml reads as a number (Go's ParseInt with base 0) and YAML 1.1 as text
    private static final Pattern OCTAL_12 = Pattern.compile("[-+]?0o[0-7]+");

    private final JsonNodeFactory factory = JsonNodeFactory.instance;
    private final ScalarValues scalars;
    private final Set<Node> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    private final Set<Node> open = Collections.newSetFromMap(new IdentityHashMap<>());
    private final int firstLine;
    private final List<ReadError> warnings = new ArrayList<>();
    private long built;
    private long builtFromAliases;
    private int aliasDepth;

    TreeBuilder(LoaderOptions options, int firstLine) {
        this.scalars = new ScalarValues(options);
        this.firstLine = firstLine;
    }

    List<ReadError> warnings() {
        return warnings;
    }

    JsonNode build(Node node) {
        return build(node, 0);
    }

    private JsonNode build(Node node, int depth) {
        if (depth > MAX_DEPTH) {
            throw failure(node, "nests deeper than " + MAX_DEPTH + " levels; the document is ignored");
        }
        boolean alias = !seen.add(node);
        if (alias) {
            aliasDepth++;
        }
        try {
            built++;
            if (aliasDepth > 0) {
                builtFromAliases++;
            }
            if (builtFromAliases > 100 && built > 1000 && (double) builtFromAliases / built > allowedAliasRatio(built)) {
                throw failure(node, "aliases expand to more than " + built + " nodes (an alias bomb?); the document is ignored");
            }
            if (node instanceof ScalarNode scalar) {
                return scalar(scalar);
            }
            if (!open.add(node)) {
                throw failure(node, "an alias refers to a node that contains it; the document is ignored");
            }
            try {
                return node instanceof SequenceNode sequence ? sequence(sequence, depth) : mapping((MappingNode) node, depth);
            } finally {
                open.remove(node);
            }
        } finally {
            if (alias) {
                aliasDepth--;
            }
        }
    }

    private static double allowedAliasRatio(long built) {
        if (built <= 400_000) {
            return 0.99;
        }
        if (built >= 4_000_000) {
            return 0.10;
        }
        return 0.10 + 0.89 * (1 - (built - 400_000) / 3_600_000.0);
    }

    private ArrayNode sequence(SequenceNode sequence, int depth) {
        ArrayNode array = factory.arrayNode(sequence.getValue().size());
        for (Node item : sequence.getValue()) {
            array.add(build(item, depth + 1));
        }
        return array;
    }

    private ObjectNode mapping(MappingNode mapping, int depth) {
        ObjectNode object = factory.objectNode();
        for (NodeTuple tuple : mapping.getValue()) {
            if (!(tuple.getKeyNode() instanceof ScalarNode key)) {
                throw failure(tuple.getKeyNode(), "a mapping key is a " + (tuple.getKeyNode() instanceof SequenceNode ? "list" : "map")
                        + ", not a string; the document is ignored");
            }
            JsonNode value = build(tuple.getValueNode(), depth + 1);
            if (object.replace(key.getValue(), value) != null) {
                warnings.add(new ReadError(line(key), column(key), "key '" + Texts.shortened(key.getValue())
                        + "' is given twice in one mapping; the last one counts"));
            }
        }
        return object;
    }

    private JsonNode scalar(ScalarNode scalar) {
        String text = scalar.getValue();
        Tag tag = scalar.getTag();
        boolean plain = scalar.getScalarStyle() == DumperOptions.ScalarStyle.PLAIN;
        if (tag.equals(Tag.NULL)) {
            return factory.nullNode();
        }
        if (tag.equals(Tag.BOOL)) {
            return factory.booleanNode((Boolean) scalars.construct(scalar));
        }
        if (tag.equals(Tag.INT) && text.indexOf(':') < 0) {
            // go-yaml has no base-60 numbers (1:20 stays text); every other YAML 1.1 integer it reads alike
            Object number = scalars.construct(scalar);
            if (number instanceof Integer value) {
                return factory.numberNode(value);
            }
            if (number instanceof Long value) {
                return factory.numberNode(value);
            }
            return factory.numberNode((BigInteger) number);
        }
        if (tag.equals(Tag.FLOAT) && text.indexOf(':') < 0) {
            double value = (Double) scalars.construct(scalar);
            // .inf and .nan are YAML numbers but no JSON value: keep them as written, for the field's check to refuse
            return Double.isFinite(value) ? factory.numberNode(value) : factory.textNode(text);
        }
        if (plain && tag.equals(Tag.STR) && OCTAL_12.matcher(text).matches()) {
            boolean negative = text.startsWith("-");
            BigInteger value = new BigInteger(text.substring(text.indexOf('o') + 1), 8);
            return factory.numberNode(negative ? value.negate() : value);
        }
        // strings, timestamps (kubectl passes them on as written), !!binary and custom tags
        return factory.textNode(text);
    }

    private ParseFailure failure(Node node, String message) {
        return new ParseFailure(new ReadError(line(node), column(node), message));
    }

    private int line(Node node) {
        return node.getStartMark() == null ? 0 : firstLine + node.getStartMark().getLine();
    }

    private static int column(Node node) {
        return node.getStartMark() == null ? 0 : node.getStartMark().getColumn() + 1;
    }

    /** SnakeYAML's own YAML 1.1 scalar rules (hex, octal, underscores, yes/no), reached through its constructor. */
    private static final class ScalarValues extends SafeConstructor {
        ScalarValues(LoaderOptions options) {
            super(options);
        }

        Object construct(ScalarNode node) {
            return constructObject(node);
        }
    }

    /** A document that cannot be read; caught by {@link YamlDocuments} for this document only. */
    static final class ParseFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        @SuppressWarnings("serial")
        private final ReadError error;

        ParseFailure(ReadError error) {
            super(error.message(), null, false, false);
            this.error = error;
        }

        ReadError error() {
            return error;
        }
    }
}
