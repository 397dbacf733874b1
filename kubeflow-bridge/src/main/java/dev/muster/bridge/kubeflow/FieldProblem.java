package dev.muster.bridge.kubeflow;

import static java.util.Objects.requireNonNull;

/** What is wrong with one field of a training job: its path (e.g. {@code spec.tfReplicaSpecs.PS.replicas}) and why. */
public record FieldProblem(String field, String message) {
    public FieldProblem {
        requireNonNull(field, "field is null");
        requireNonNull(message, "message is null");
    }

    @Override
    public String toString() {
        return field + ": " + message;
    }
}
