package dev.muster.graph;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

/** The name of a node in a {@link JobGraph}: a task name, a job name or a DAG task id. */
public record NodeId(String value) implements Comparable<NodeId> {
    public NodeId {
        requireNonNull(value, "value is null");
        checkArgument(!value.isBlank(), "node id is blank");
    }

    public static NodeId of(String value) {
        return new NodeId(value);
    }

    @Override
    public int compareTo(NodeId other) {
        return value.compareTo(other.value);
    }

    @Override
    public String toString() {
        return value;
    }
}
