package dev.muster.engine.model;

import static java.util.Objects.requireNonNull;

/** A pod's identity: its namespace and name. */
public record TaskId(String namespace, String name) implements Comparable<TaskId> {
    public TaskId {
        requireNonNull(namespace, "namespace is null");
        requireNonNull(name, "name is null");
    }

    /** Parses {@code namespace/name}. */
    public static TaskId parse(String text) {
        int slash = text.indexOf('/');
        if (slash < 0) {
            throw new IllegalArgumentException("expected namespace/name: " + text);
        }
        return new TaskId(text.substring(0, slash), text.substring(slash + 1));
    }

    @Override
    public int compareTo(TaskId other) {
        int byNamespace = namespace.compareTo(other.namespace);
        return byNamespace != 0 ? byNamespace : name.compareTo(other.name);
    }

    @Override
    public String toString() {
        return namespace + "/" + name;
    }
}
