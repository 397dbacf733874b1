package dev.muster.engine.yaml;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import java.util.Optional;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

/**
 * Where the fields of one document were written, found by the field path problems name
 * ({@code spec.containers[0].resources.requests.cpu}; a key containing dots is joined with dots too, as
 * problems write {@code metadata.annotations.volcano.sh/queue-name}, and matched against the longest
 * key that fits). A field's position is that of its key (or, in a list, of its item). A path that does
 * not reach a written field (an absent field) gets the position of the deepest part that is written,
 * so a report still points at the place that holds the problem. A field reached through an alias is at
 * its anchor, where its text is.
 *
 * <p>Positions are looked up, not recorded: the document's composed nodes are kept and walked only when
 * a problem is reported, so a cluster dump of many objects costs no table of positions. Immutable.
 */
public final class Positions {
    /** A document with no known positions, e.g. an object read from the API server. */
    public static final Positions NONE = new Positions(null, 0);

    private final Node root;
    private final int firstLine;

    Positions(Node root, int firstLine) {
        this.root = root;
        this.firstLine = firstLine;
    }

    /** The position of {@code path}, or of the deepest part of it that is written; empty when unknown. */
    public Optional<Position> of(String path) {
        requireNonNull(path, "path is null");
        if (root == null) {
            return Optional.empty();
        }
        Mark mark = root.getStartMark();
        Node node = root;
        String rest = path;
        while (!rest.isEmpty()) {
            Step step = step(node, rest);
            if (step == null) {
                break;
            }
            mark = step.mark() == null ? mark : step.mark();
            node = step.node();
            rest = step.rest();
        }
        return mark == null ? Optional.empty() : Optional.of(new Position(firstLine + mark.getLine(), mark.getColumn() + 1));
    }

    /** The positions inside the field at {@code path} (a List's item, {@code items[3]}), relative to it. */
    public Positions under(String path) {
        requireNonNull(path, "path is null");
        Node node = root;
        String rest = path;
        while (node != null && !rest.isEmpty()) {
            Step step = step(node, rest);
            node = step == null ? null : step.node();
            rest = step == null ? "" : step.rest();
        }
        return node == null ? NONE : new Positions(node, firstLine);
    }

    /** One field down {@code rest} from {@code node}; null when {@code rest} does not start with a written field. */
    private static Step step(Node node, String rest) {
        if (rest.startsWith("[")) {
            int close = rest.indexOf(']');
            if (!(node instanceof SequenceNode sequence) || close < 2) {
                return null;
            }
            int index;
            try {
                index = Integer.parseInt(rest.substring(1, close));
            } catch (NumberFormatException e) {
                return null;
            }
            if (index < 0 || index >= sequence.getValue().size()) {
                return null;
            }
            Node item = sequence.getValue().get(index);
            return new Step(item.getStartMark(), item, after(rest, close + 1));
        }
        if (!(node instanceof MappingNode mapping)) {
            return null;
        }
        NodeTuple best = null;
        int bestLength = -1;
        for (NodeTuple tuple : mapping.getValue()) {
            if (tuple.getKeyNode() instanceof ScalarNode key && fits(key.getValue(), rest) && key.getValue().length() > bestLength) {
                best = tuple;
                bestLength = key.getValue().length();
            }
        }
        if (best == null) {
            return null;
        }
        return new Step(best.getKeyNode().getStartMark(), best.getValueNode(), after(rest, bestLength));
    }

    private static boolean fits(String key, String rest) {
        return rest.startsWith(key) && (rest.length() == key.length() || rest.charAt(key.length()) == '.' || rest.charAt(key.length()) == '[');
    }

    private static String after(String rest, int from) {
        String tail = rest.substring(from);
        return tail.startsWith(".") ? tail.substring(1) : tail;
    }

    private record Step(Mark mark, Node node, String rest) {}

    /**
     * A place in a file.
     *
     * @param line from 1, in the whole file
     * @param column from 1
     */
    public record Position(int line, int column) {
        public Position {
            checkArgument(line >= 1 && column >= 1, "line and column start at 1: %s:%s", line, column);
        }

        /** {@code line 3, column 7}. */
        public String describe() {
            return "line " + line + ", column " + column;
        }
    }
}
