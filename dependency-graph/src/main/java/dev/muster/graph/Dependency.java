package dev.muster.graph;

import static java.util.Objects.requireNonNull;

/** An edge: {@code child} waits until {@code parent} meets {@code condition}. */
public record Dependency(NodeId parent, NodeId child, Condition condition) {
    public Dependency {
        requireNonNull(parent, "parent is null");
        requireNonNull(child, "child is null");
        requireNonNull(condition, "condition is null");
    }

    /** Whether a parent in {@code parentState} meets this edge now. */
    public boolean isMetBy(NodeState parentState) {
        return condition.isMetBy(parentState);
    }

    /** {@code a -> b (succeeded)}. */
    @Override
    public String toString() {
        return parent + " -> " + child + " (" + condition + ")";
    }
}
