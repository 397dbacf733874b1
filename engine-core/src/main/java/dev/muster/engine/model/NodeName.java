package dev.muster.engine.model;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

/** A node's name. */
public record NodeName(String value) implements Comparable<NodeName> {
    public NodeName {
        requireNonNull(value, "value is null");
        checkArgument(!value.isEmpty(), "empty NodeName");
    }

    @Override
    public int compareTo(NodeName other) {
        return value.compareTo(other.value);
    }

    @Override
    public String toString() {
        return value;
    }
}
