package dev.muster.engine.cache;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import dev.muster.engine.yaml.Positions;
import dev.muster.engine.yaml.Texts;
import java.util.Optional;
import java.util.OptionalInt;

/** Where a manifest object is: its source, its document index and, inside a List, its item index. */
record Location(String source, int document, OptionalInt item) {
    Location {
        requireNonNull(source, "source is null");
        checkArgument(document >= 0, "document is negative: %s", document);
        requireNonNull(item, "item is null");
    }

    Location withItem(int index) {
        return new Location(source, document, OptionalInt.of(index));
    }

    ManifestProblem problem(String kind, String name, String field, String message, ManifestProblem.Severity severity) {
        return problem(Optional.empty(), kind, name, field, message, severity);
    }

    ManifestProblem problem(Optional<Positions.Position> position, String kind, String name, String field, String message,
            ManifestProblem.Severity severity) {
        // one huge value must not flood the report: every quoted value and name is cut to a readable length
        return new ManifestProblem(source, document, item, position, Texts.shortened(kind), Texts.shortened(name), Texts.shortened(field),
                Texts.shortenedQuotes(message), severity);
    }

    @Override
    public String toString() {
        return item.isPresent() ? source + "[" + document + "].items[" + item.getAsInt() + "]" : source + "[" + document + "]";
    }
}
