package dev.muster.jobs;

import static java.util.Objects.requireNonNull;

import java.util.Arrays;

/** A pod's {@code status.phase}; anything Kubernetes may add later reads as {@link #UNKNOWN}. */
public enum PodPhase {
    PENDING("Pending"),
    RUNNING("Running"),
    SUCCEEDED("Succeeded"),
    FAILED("Failed"),
    UNKNOWN("Unknown");

    private final String wireName;

    PodPhase(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    /** The phase Kubernetes reports; an empty or unrecognised phase is Pending or Unknown as Volcano counts it. */
    public static PodPhase fromWireName(String name) {
        requireNonNull(name, "name is null");
        if (name.isEmpty()) {
            return PENDING;
        }
        return Arrays.stream(values()).filter(phase -> phase.wireName.equals(name)).findFirst().orElse(UNKNOWN);
    }

    @Override
    public String toString() {
        return wireName;
    }
}
