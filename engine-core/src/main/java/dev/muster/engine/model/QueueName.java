package dev.muster.engine.model;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

/** A queue's name (queues are cluster-scoped). */
public record QueueName(String value) implements Comparable<QueueName> {
    public QueueName {
        requireNonNull(value, "value is null");
        checkArgument(!value.isEmpty(), "empty QueueName");
    }

    @Override
    public int compareTo(QueueName other) {
        return value.compareTo(other.value);
    }

    @Override
    public String toString() {
        return value;
    }
}
