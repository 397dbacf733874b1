package dev.muster.jobs;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableMap;
import java.time.Instant;

/** The parts of a Volcano object's {@code metadata} the controllers use. {@code uid} is empty until the API server sets one. */
public record JobMetadata(
        String namespace,
        String name,
        String uid,
        ImmutableMap<String, String> labels,
        ImmutableMap<String, String> annotations,
        Instant creationTimestamp) {
    public JobMetadata {
        requireNonNull(namespace, "namespace is null");
        requireNonNull(name, "name is null");
        requireNonNull(uid, "uid is null");
        labels = ImmutableMap.copyOf(labels);
        annotations = ImmutableMap.copyOf(annotations);
        requireNonNull(creationTimestamp, "creationTimestamp is null");
    }

    /** {@code namespace/name}. */
    public String key() {
        return namespace + "/" + name;
    }
}
