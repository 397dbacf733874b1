package dev.muster.engine.cache;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import dev.muster.engine.yaml.Positions;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * One thing wrong with a manifest object, and where it is.
 *
 * @param source the file (or the name given to a text) the object was read from
 * @param document the index of the YAML document (or JSON value) in the source, from 0
 * @param item the index within the {@code items} of a {@code kind: List} document, if the object is one
 * @param position where the bad field (or, when it is absent, the part of the object that should hold
 *     it) is written in the source; empty when not known, as for objects read from the API server
 * @param kind the object's kind, empty when the document has none
 * @param name {@code namespace/name} for namespaced objects, {@code name} otherwise; empty when unknown
 * @param field the path of the bad field, e.g. {@code spec.containers[0].resources.requests.cpu}; empty
 *     when the problem concerns the whole object
 * @param message what is wrong, naming the bad value
 * @param severity {@link Severity#ERROR} when the manifest itself is malformed, {@link Severity#WARNING}
 *     when it is well-formed but something was ignored or is inconsistent
 */
public record ManifestProblem(
        String source,
        int document,
        OptionalInt item,
        Optional<Positions.Position> position,
        String kind,
        String name,
        String field,
        String message,
        Severity severity) {
    /** How bad a problem is. */
    public enum Severity {
        ERROR,
        WARNING
    }

    public ManifestProblem {
        requireNonNull(source, "source is null");
        checkArgument(document >= 0, "document is negative: %s", document);
        requireNonNull(item, "item is null");
        requireNonNull(position, "position is null");
        requireNonNull(kind, "kind is null");
        requireNonNull(name, "name is null");
        requireNonNull(field, "field is null");
        requireNonNull(message, "message is null");
        requireNonNull(severity, "severity is null");
    }

    /** An error in a top-level document. */
    public ManifestProblem(String source, int document, String kind, String name, String field, String message) {
        this(source, document, OptionalInt.empty(), Optional.empty(), kind, name, field, message, Severity.ERROR);
    }

    /**
     * One line for people, without the severity, e.g.
     * {@code cluster.yaml[3] Pod ml/train-0: spec.containers[0].resources.requests.cpu: '-1' is negative}. The same for an
     * object read from a file and from the API server, so an event says what {@code what-if} says; see {@link #describeInFile()}.
     */
    public String describe() {
        StringBuilder text = new StringBuilder(source).append('[').append(document).append(']');
        item.ifPresent(index -> text.append(".items[").append(index).append(']'));
        if (!kind.isEmpty()) {
            text.append(' ').append(kind);
        }
        if (!name.isEmpty()) {
            text.append(' ').append(name);
        }
        text.append(": ");
        if (!field.isEmpty()) {
            text.append(field).append(": ");
        }
        return text.append(message).toString();
    }

    /**
     * {@link #describe()} with where the field is written, for a reader with the file at hand, e.g.
     * {@code cluster.yaml[3] Pod ml/train-0: spec.containers[0].resources.requests.cpu: '-1' is negative (line 14, column 13)}.
     */
    public String describeInFile() {
        return position.map(at -> describe() + " (" + at.describe() + ")").orElseGet(this::describe);
    }
}
