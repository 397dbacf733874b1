package dev.muster.engine.yaml;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.common.collect.ImmutableList;
import java.util.Optional;

/**
 * One document of a YAML stream (or one JSON value) and what went wrong reading it.
 *
 * @param index the document's index in the stream, from 0; empty documents count, as YAML counts them
 * @param firstLine the line (from 1) the document starts on
 * @param tree the document, when it could be read; empty for an empty document or an {@code error}
 * @param error why the document could not be read at all
 * @param warnings what was read but is suspicious, e.g. a key given twice (the last one counts)
 * @param header the {@code kind} and {@code metadata.name} found by a plain text scan when the document
 *     could not be read, so a report can still name the object; empty strings when not found
 * @param positions where the fields of {@code tree} were written; {@link Positions#NONE} when not known
 */
public record YamlDocument(int index, int firstLine, Optional<JsonNode> tree, Optional<ReadError> error,
        ImmutableList<ReadError> warnings, Header header, Positions positions) {
    public YamlDocument {
        checkArgument(index >= 0, "index is negative: %s", index);
        requireNonNull(tree, "tree is null");
        requireNonNull(error, "error is null");
        warnings = ImmutableList.copyOf(warnings);
        requireNonNull(header, "header is null");
        requireNonNull(positions, "positions is null");
        checkArgument(tree.isEmpty() || error.isEmpty(), "a document has a tree or an error, not both");
    }

    /** The kind and name of a document that could not be parsed, as far as a text scan finds them. */
    public record Header(String kind, String namespace, String name) {
        public static final Header NONE = new Header("", "", "");

        public Header {
            requireNonNull(kind, "kind is null");
            requireNonNull(namespace, "namespace is null");
            requireNonNull(name, "name is null");
        }
    }
}
