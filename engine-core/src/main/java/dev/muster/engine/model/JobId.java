package dev.muster.engine.model;

import static java.util.Objects.requireNonNull;

/** A PodGroup's identity: its namespace and name. */
public record JobId(String namespace, String name) implements Comparable<JobId> {
    public JobId {
        requireNonNull(namespace, "namespace is null");
        requireNonNull(name, "name is null");
    }

    /** Parses {@code namespace/name}. */
    public static JobId parse(String text) {
        int slash = text.indexOf('/');
        if (slash < 0) {
            throw new IllegalArgumentException("expected namespace/name: " + text);
        }
        return new JobId(text.substring(0, slash), text.substring(slash + 1));
    }

    @Override
    public int compareTo(JobId other) {
        int byNamespace = namespace.compareTo(other.namespace);
        return byNamespace != 0 ? byNamespace : name.compareTo(other.name);
    }

    @Override
    public String toString() {
        return namespace + "/" + name;
    }
}
